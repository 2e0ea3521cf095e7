// affine.prefetch: syntax and lowering to memref.prefetch, as mlir-opt-22.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: diff <(silica opt --lower-affine %s) <(mlir-opt-22 --lower-affine %s)
func.func @p(%m: memref<10xf32>, %i: index, %s: index) {
  affine.prefetch %m[%i + symbol(%s) + 7], read, locality<3>, data : memref<10xf32>
  memref.prefetch %m[%i], write, locality<1>, instr : memref<10xf32>
  return
}
