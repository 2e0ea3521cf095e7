// PolyBench/C 4.2 linear-algebra/blas/gesummv, SMALL dataset (N=90), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @gesummv(%alpha: f32 {hls.name = "alpha"},
    %beta: f32 {hls.name = "beta"},
    %A: memref<90x90xf32> {hls.name = "A"},
    %B: memref<90x90xf32> {hls.name = "B"},
    %tmp: memref<90xf32> {hls.name = "tmp"},
    %x: memref<90xf32> {hls.name = "x"},
    %y: memref<90xf32> {hls.name = "y"}) {
  %cst0_0 = arith.constant 0.0 : f32
  affine.for %i1 = 0 to 90 {
    affine.store %cst0_0, %tmp[%i1] : memref<90xf32>
    affine.store %cst0_0, %y[%i1] : memref<90xf32>
    affine.for %j3 = 0 to 90 {
      %v4 = affine.load %A[%i1, %j3] : memref<90x90xf32>
      %v5 = affine.load %x[%j3] : memref<90xf32>
      %v6 = arith.mulf %v4, %v5 : f32
      %v7 = affine.load %tmp[%i1] : memref<90xf32>
      %v8 = arith.addf %v6, %v7 : f32
      affine.store %v8, %tmp[%i1] : memref<90xf32>
      %v9 = affine.load %B[%i1, %j3] : memref<90x90xf32>
      %v10 = affine.load %x[%j3] : memref<90xf32>
      %v11 = arith.mulf %v9, %v10 : f32
      %v12 = affine.load %y[%i1] : memref<90xf32>
      %v13 = arith.addf %v11, %v12 : f32
      affine.store %v13, %y[%i1] : memref<90xf32>
    }
    %v14 = affine.load %tmp[%i1] : memref<90xf32>
    %v15 = arith.mulf %alpha, %v14 : f32
    %v16 = affine.load %y[%i1] : memref<90xf32>
    %v17 = arith.mulf %beta, %v16 : f32
    %v18 = arith.addf %v15, %v17 : f32
    affine.store %v18, %y[%i1] : memref<90xf32>
  }
  return
}
