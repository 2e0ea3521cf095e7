// lower-affine on affine.parallel (with reductions and constant bounds
// folded into the maps first) and affine.dma_start/dma_wait, then
// scf.parallel (with reductions) to loops and llvm, as mlir-opt-22.
// RUN: diff <(silica opt --lower-affine %s) <(mlir-opt-22 --lower-affine %s)
// RUN: diff <(silica opt --lower-affine --convert-scf-to-cf %s) <(mlir-opt-22 --lower-affine --convert-scf-to-cf %s)
// RUN: diff <(silica opt --lower-affine --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts %s) <(mlir-opt-22 --lower-affine --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts %s)
func.func @p(%a: index, %b: index, %c: index, %N: index, %m: memref<100x100xf32>) -> (f32, f32) {
  affine.parallel (%i0, %j0) = (0, 0) to (symbol(%N), 100) step (10, 10) {
    %0:2 = affine.parallel (%i1, %j1) = (%i0, %j0) to (%i0 + 10, %j0 + 10) reduce ("minimumf", "maximumf") -> (f32, f32) {
      %1 = affine.load %m[%i1, %j1] : memref<100x100xf32>
      affine.yield %1, %1 : f32, f32
    }
  }
  affine.parallel (%i, %j, %k) = (max(%a, %b), %b, max(%a, %c)) to (%c, min(%a, %b), %b) {
  }
  %r:2 = affine.parallel (%x) = (0) to (10) reduce ("addf", "mulf") -> (f32, f32) {
    %v = affine.load %m[%x, %x] : memref<100x100xf32>
    affine.yield %v, %v : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}
func.func @d(%arg0: index) {
  %0 = memref.alloc() : memref<100xf32>
  %1 = memref.alloc() : memref<100xf32, 2>
  %2 = memref.alloc() : memref<1xi32>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  affine.for %i0 = 0 to 10 {
    affine.dma_start %0[%i0 + 7], %1[%arg0 + 11], %2[%c0], %c64 : memref<100xf32>, memref<100xf32, 2>, memref<1xi32>
    affine.dma_wait %2[%i0 + %arg0 + 17], %c64 : memref<1xi32>
  }
  return
}
