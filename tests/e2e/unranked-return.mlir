// Unranked memrefs returned from functions go through the heap as in
// MLIR's calling convention: the callee copies the ranked descriptor to
// `malloc`ed memory, the caller copies it into its frame and frees the
// heap copy; functions marked `llvm.bareptr` (and calls of them) use the
// bare-pointer convention. The llvm-dialect module is byte-identical to
// mlir-opt-22's; lli-22 runs it (7 stored through the returned memref
// plus its size 4).
// RUN: diff <(silica opt --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts %s) <(mlir-opt-22 --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts %s)
// RUN: diff <(silica opt --finalize-memref-to-llvm --llvm-request-c-wrappers --convert-arith-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts %s) <(mlir-opt-22 --finalize-memref-to-llvm --llvm-request-c-wrappers --convert-arith-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts %s)
// RUN: silica opt --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts %s | silica translate --to-llvmir -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: lli-22 %t.ll; test $? -eq 11
func.func @make(%n: index) -> memref<*xi32> {
  %m = memref.alloc(%n) : memref<?xi32>
  %c7 = arith.constant 7 : i32
  %c0 = arith.constant 0 : index
  memref.store %c7, %m[%c0] : memref<?xi32>
  %u = memref.cast %m : memref<?xi32> to memref<*xi32>
  return %u : memref<*xi32>
}
func.func @main() -> i32 {
  %c4 = arith.constant 4 : index
  %u = call @make(%c4) : (index) -> memref<*xi32>
  %r = memref.cast %u : memref<*xi32> to memref<?xi32>
  %c0 = arith.constant 0 : index
  %v = memref.load %r[%c0] : memref<?xi32>
  %n = memref.dim %r, %c0 : memref<?xi32>
  %ni = arith.index_cast %n : index to i32
  %s = arith.addi %v, %ni : i32
  memref.dealloc %r : memref<?xi32>
  return %s : i32
}
func.func @bare(%m: memref<4xf32>, %i: index, %v: f32) -> memref<4xf32> attributes {llvm.bareptr} {
  memref.store %v, %m[%i] : memref<4xf32>
  return %m : memref<4xf32>
}
func.func @call_bare(%m: memref<4xf32>, %v: f32) -> memref<4xf32> {
  %c1 = arith.constant 1 : index
  %r = call @bare(%m, %c1, %v) : (memref<4xf32>, index, f32) -> memref<4xf32>
  return %r : memref<4xf32>
}
