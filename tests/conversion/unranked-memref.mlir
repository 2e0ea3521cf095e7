// Unranked memrefs: casts to and from ranked ones through a stack copy of
// the descriptor, as mlir-opt-22.
// RUN: diff <(silica opt --finalize-memref-to-llvm %s) <(mlir-opt-22 --finalize-memref-to-llvm %s)
func.func @c(%m: memref<42x2x?xf32>) -> memref<*xf32> {
  %u = memref.cast %m : memref<42x2x?xf32> to memref<*xf32>
  return %u : memref<*xf32>
}
func.func @u(%m: memref<*xf32>) -> memref<?x4xf32> {
  %r = memref.cast %m : memref<*xf32> to memref<?x4xf32>
  return %r : memref<?x4xf32>
}
