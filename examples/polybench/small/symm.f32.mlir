// PolyBench/C 4.2 linear-algebra/blas/symm, SMALL dataset (M=60, N=80), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @symm(%alpha: f32 {hls.name = "alpha"},
    %beta: f32 {hls.name = "beta"},
    %C: memref<60x80xf32> {hls.name = "C"},
    %A: memref<60x60xf32> {hls.name = "A"},
    %B: memref<60x80xf32> {hls.name = "B"}) {
  %cst0_0 = arith.constant 0.0 : f32
  affine.for %i1 = 0 to 60 {
    affine.for %j2 = 0 to 80 {
      %k_r6 = affine.for %k4 = 0 to affine_map<(d0) -> (d0)>(%i1) iter_args(%temp25 = %cst0_0) -> (f32) {
        %v7 = affine.load %C[%k4, %j2] : memref<60x80xf32>
        %v8 = affine.load %B[%i1, %j2] : memref<60x80xf32>
        %v9 = arith.mulf %alpha, %v8 : f32
        %v10 = affine.load %A[%i1, %k4] : memref<60x60xf32>
        %v11 = arith.mulf %v9, %v10 : f32
        %v12 = arith.addf %v7, %v11 : f32
        affine.store %v12, %C[%k4, %j2] : memref<60x80xf32>
        %v13 = affine.load %B[%k4, %j2] : memref<60x80xf32>
        %v14 = affine.load %A[%i1, %k4] : memref<60x60xf32>
        %v15 = arith.mulf %v13, %v14 : f32
        %v16 = arith.addf %temp25, %v15 : f32
        affine.yield %v16 : f32
      }
      %v17 = affine.load %C[%i1, %j2] : memref<60x80xf32>
      %v18 = arith.mulf %beta, %v17 : f32
      %v19 = affine.load %B[%i1, %j2] : memref<60x80xf32>
      %v20 = arith.mulf %alpha, %v19 : f32
      %v21 = affine.load %A[%i1, %i1] : memref<60x60xf32>
      %v22 = arith.mulf %v20, %v21 : f32
      %v23 = arith.addf %v18, %v22 : f32
      %v24 = arith.mulf %alpha, %k_r6 : f32
      %v25 = arith.addf %v23, %v24 : f32
      affine.store %v25, %C[%i1, %j2] : memref<60x80xf32>
    }
  }
  return
}
