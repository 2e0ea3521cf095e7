// PolyBench/C 4.2 stencils/jacobi-2d, MINI dataset (TSTEPS=20, N=30), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @jacobi_2d(%A: memref<30x30xf32> {hls.name = "A"},
    %B: memref<30x30xf32> {hls.name = "B"}) {
  %cst0_2 = arith.constant 0.2 : f32
  affine.for %t1 = 0 to 20 {
    affine.for %i2 = 1 to 29 {
      affine.for %j3 = 1 to 29 {
        %v4 = affine.load %A[%i2, %j3] : memref<30x30xf32>
        %v5 = affine.load %A[%i2, %j3 - 1] : memref<30x30xf32>
        %v6 = arith.addf %v4, %v5 : f32
        %v7 = affine.load %A[%i2, %j3 + 1] : memref<30x30xf32>
        %v8 = arith.addf %v6, %v7 : f32
        %v9 = affine.load %A[%i2 + 1, %j3] : memref<30x30xf32>
        %v10 = arith.addf %v8, %v9 : f32
        %v11 = affine.load %A[%i2 - 1, %j3] : memref<30x30xf32>
        %v12 = arith.addf %v10, %v11 : f32
        %v14 = arith.mulf %cst0_2, %v12 : f32
        affine.store %v14, %B[%i2, %j3] : memref<30x30xf32>
      }
    }
    affine.for %i15 = 1 to 29 {
      affine.for %j16 = 1 to 29 {
        %v17 = affine.load %B[%i15, %j16] : memref<30x30xf32>
        %v18 = affine.load %B[%i15, %j16 - 1] : memref<30x30xf32>
        %v19 = arith.addf %v17, %v18 : f32
        %v20 = affine.load %B[%i15, %j16 + 1] : memref<30x30xf32>
        %v21 = arith.addf %v19, %v20 : f32
        %v22 = affine.load %B[%i15 + 1, %j16] : memref<30x30xf32>
        %v23 = arith.addf %v21, %v22 : f32
        %v24 = affine.load %B[%i15 - 1, %j16] : memref<30x30xf32>
        %v25 = arith.addf %v23, %v24 : f32
        %v26 = arith.mulf %cst0_2, %v25 : f32
        affine.store %v26, %A[%i15, %j16] : memref<30x30xf32>
      }
    }
  }
  return
}
