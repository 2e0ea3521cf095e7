// memref.copy (memcpy between contiguous memrefs, the runtime's
// memrefCopy on unranked descriptors otherwise), assume_alignment and
// distinct_objects (llvm.intr.assume with operand bundles), dim and the
// aligned pointer of an unranked memref, atomics at an offset, and
// uninitialized and rank-0 globals, memory-space casts and reshapes, as
// mlir-opt-22 lowers them.
// RUN: diff <(silica opt --finalize-memref-to-llvm %s) <(mlir-opt-22 --finalize-memref-to-llvm %s)
// RUN: diff <(silica opt --finalize-memref-to-llvm=index-bitwidth=32 %s) <(mlir-opt-22 --finalize-memref-to-llvm=index-bitwidth=32 %s)
// RUN: silica opt --finalize-memref-to-llvm %s | FileCheck %s

// CHECK: llvm.func @memrefCopy(i64, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @copies
// CHECK: "llvm.intr.memcpy"
// CHECK: llvm.intr.stacksave : !llvm.ptr
// CHECK: llvm.call @memrefCopy
// CHECK: llvm.intr.stackrestore
func.func @copies(%a: memref<4x4xf32, strided<[8, 1], offset: ?>>, %b: memref<4x4xf32>, %u: memref<*xf32>, %r: memref<1x4xf32, strided<[8, 1], offset: ?>>, %s: memref<1x4xf32>) {
  memref.copy %r, %s : memref<1x4xf32, strided<[8, 1], offset: ?>> to memref<1x4xf32>
  memref.copy %a, %b : memref<4x4xf32, strided<[8, 1], offset: ?>> to memref<4x4xf32>
  memref.copy %u, %b : memref<*xf32> to memref<4x4xf32>
  return
}

// CHECK-LABEL: func.func @assumes
// CHECK: llvm.intr.assume %{{.*}} ["align"(%{{.*}}, %{{.*}} : !llvm.ptr, i64)] : i1
// CHECK: llvm.intr.assume %{{.*}} ["separate_storage"(%{{.*}}, %{{.*}} : !llvm.ptr, !llvm.ptr)] : i1
func.func @assumes(%m: memref<4x4xf16, strided<[?, ?], offset: ?>>, %x: memref<?xf32>, %y: memref<?xf64>) -> (memref<?xf32>, memref<?xf64>) {
  %0 = memref.assume_alignment %m, 16 : memref<4x4xf16, strided<[?, ?], offset: ?>>
  %1, %2 = memref.distinct_objects %x, %y : memref<?xf32>, memref<?xf64>
  return %1, %2 : memref<?xf32>, memref<?xf64>
}

// CHECK-LABEL: func.func @unranked_dim
// CHECK: llvm.getelementptr %{{.*}}[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr, i64)>
func.func @unranked_dim(%u: memref<*xi32>, %i: index) -> index {
  %d = memref.dim %u, %i : memref<*xi32>
  return %d : index
}

// CHECK-LABEL: func.func @unranked_pointer
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.ptrtoint
func.func @unranked_pointer(%u: memref<*xf32>) -> index {
  %p = memref.extract_aligned_pointer_as_index %u : memref<*xf32> -> index
  return %p : index
}

// CHECK-LABEL: func.func @atomic_offset
// CHECK: llvm.atomicrmw _and %{{.*}}, %{{.*}} acq_rel : !llvm.ptr, i32
func.func @atomic_offset(%m: memref<10xi32, strided<[1], offset: 5>>, %v: i32, %i: index, %n: memref<?x?xf32, strided<[?, 1], offset: ?>>, %f: f32) {
  %0 = memref.atomic_rmw andi %v, %m[%i] : (i32, memref<10xi32, strided<[1], offset: 5>>) -> i32
  %1 = memref.atomic_rmw maxnumf %f, %n[%i, %i] : (f32, memref<?x?xf32, strided<[?, 1], offset: ?>>) -> f32
  return
}

memref.global @uninit : memref<2xf32> = uninitialized
memref.global "private" @scalar : memref<f32> = dense<1.0> {alignment = 64}

// CHECK-LABEL: func.func @space_cast_and_reshape
// CHECK: llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<1>
func.func @space_cast_and_reshape(%m: memref<?xf32>, %a: memref<?x?xi32>, %shape: memref<1xindex>) -> (memref<?xf32, 1>, memref<?xi32>) {
  %c = memref.memory_space_cast %m : memref<?xf32> to memref<?xf32, 1>
  %r = memref.reshape %a(%shape) : (memref<?x?xi32>, memref<1xindex>) -> memref<?xi32>
  return %c, %r : memref<?xf32, 1>, memref<?xi32>
}
