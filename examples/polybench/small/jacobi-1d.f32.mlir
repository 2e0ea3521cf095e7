// PolyBench/C 4.2 stencils/jacobi-1d, SMALL dataset (TSTEPS=40, N=120), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @jacobi_1d(%A: memref<120xf32> {hls.name = "A"},
    %B: memref<120xf32> {hls.name = "B"}) {
  %cst0_33333_f64 = arith.constant 0.33333 : f64
  affine.for %t1 = 0 to 40 {
    affine.for %i2 = 1 to 119 {
      %v3 = affine.load %A[%i2 - 1] : memref<120xf32>
      %v4 = affine.load %A[%i2] : memref<120xf32>
      %v5 = arith.addf %v3, %v4 : f32
      %v6 = affine.load %A[%i2 + 1] : memref<120xf32>
      %v7 = arith.addf %v5, %v6 : f32
      %v8 = arith.extf %v7 : f32 to f64
      %v10 = arith.mulf %cst0_33333_f64, %v8 : f64
      %v11 = arith.truncf %v10 : f64 to f32
      affine.store %v11, %B[%i2] : memref<120xf32>
    }
    affine.for %i12 = 1 to 119 {
      %v13 = affine.load %B[%i12 - 1] : memref<120xf32>
      %v14 = affine.load %B[%i12] : memref<120xf32>
      %v15 = arith.addf %v13, %v14 : f32
      %v16 = affine.load %B[%i12 + 1] : memref<120xf32>
      %v17 = arith.addf %v15, %v16 : f32
      %v18 = arith.extf %v17 : f32 to f64
      %v19 = arith.mulf %cst0_33333_f64, %v18 : f64
      %v20 = arith.truncf %v19 : f64 to f32
      affine.store %v20, %A[%i12] : memref<120xf32>
    }
  }
  return
}
