// affine.parallel: bounds with max/min groups, steps, reductions, the
// empty form; printed and lowered to scf.parallel as mlir-opt-22.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
func.func @p(%a: index, %b: index, %c: index, %N: index, %m: memref<100x100xf32>) -> (f32, f32) {
  affine.parallel (%i0, %j0) = (0, 0) to (symbol(%N), 100) step (10, 10) {
    %0:2 = affine.parallel (%i1, %j1) = (%i0, %j0) to (%i0 + 10, %j0 + 10) reduce ("minimumf", "maximumf") -> (f32, f32) {
      %1 = affine.load %m[%i1, %j1] : memref<100x100xf32>
      affine.yield %1, %1 : f32, f32
    }
  }
  affine.parallel (%i, %j, %k) = (max(%a, %b), %b, max(%a, %c)) to (%c, min(%a, %b), %b) {
  }
  affine.parallel () = () to () {
  }
  %r:2 = affine.parallel (%x) = (0) to (10) reduce ("addf", "mulf") -> (f32, f32) {
    %v = affine.load %m[%x, %x] : memref<100x100xf32>
    affine.yield %v, %v : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}
