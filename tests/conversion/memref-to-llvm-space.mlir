// memref.dealloc of a buffer in another memory space (what
// affine-data-copy-generate{fast-mem-space=1} allocates): the allocated
// pointer is cast to the generic address space `free` takes. mlir-opt-22
// calls `free` with the `!llvm.ptr<1>` itself, which does not verify.
// The module also runs in lli-22.
// RUN: silica opt --finalize-memref-to-llvm %s | FileCheck %s
// RUN: silica opt --finalize-memref-to-llvm=use-generic-functions=1 %s | FileCheck %s --check-prefix=GENERIC
// RUN: silica opt --convert-to-llvm --reconcile-unrealized-casts %s | silica translate --mlir-to-llvmir | lli-22 --entry-function=main; test $? -eq 7

// CHECK-LABEL: func.func @space
// CHECK: %[[P:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT: %[[G:.*]] = llvm.addrspacecast %[[P]] : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT: llvm.call @free(%[[G]]) : (!llvm.ptr) -> ()
// GENERIC: %[[G:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<1> to !llvm.ptr
// GENERIC-NEXT: llvm.call @_mlir_memref_to_llvm_free(%[[G]]) : (!llvm.ptr) -> ()
func.func @space(%i: index, %v: i32) -> i32 {
  %a = memref.alloc() : memref<4xi32, 1>
  memref.store %v, %a[%i] : memref<4xi32, 1>
  %w = memref.load %a[%i] : memref<4xi32, 1>
  memref.dealloc %a : memref<4xi32, 1>
  return %w : i32
}

func.func @main() -> i32 {
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : i32
  %r = call @space(%c2, %c7) : (index, i32) -> i32
  return %r : i32
}
