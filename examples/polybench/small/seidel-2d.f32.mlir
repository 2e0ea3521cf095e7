// PolyBench/C 4.2 stencils/seidel-2d, SMALL dataset (TSTEPS=40, N=120), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @seidel_2d(%A: memref<120x120xf32> {hls.name = "A"}) {
  %cst9_0 = arith.constant 9.0 : f32
  affine.for %t1 = 0 to 40 {
    affine.for %i2 = 1 to 119 {
      affine.for %j3 = 1 to 119 {
        %v4 = affine.load %A[%i2 - 1, %j3 - 1] : memref<120x120xf32>
        %v5 = affine.load %A[%i2 - 1, %j3] : memref<120x120xf32>
        %v6 = arith.addf %v4, %v5 : f32
        %v7 = affine.load %A[%i2 - 1, %j3 + 1] : memref<120x120xf32>
        %v8 = arith.addf %v6, %v7 : f32
        %v9 = affine.load %A[%i2, %j3 - 1] : memref<120x120xf32>
        %v10 = arith.addf %v8, %v9 : f32
        %v11 = affine.load %A[%i2, %j3] : memref<120x120xf32>
        %v12 = arith.addf %v10, %v11 : f32
        %v13 = affine.load %A[%i2, %j3 + 1] : memref<120x120xf32>
        %v14 = arith.addf %v12, %v13 : f32
        %v15 = affine.load %A[%i2 + 1, %j3 - 1] : memref<120x120xf32>
        %v16 = arith.addf %v14, %v15 : f32
        %v17 = affine.load %A[%i2 + 1, %j3] : memref<120x120xf32>
        %v18 = arith.addf %v16, %v17 : f32
        %v19 = affine.load %A[%i2 + 1, %j3 + 1] : memref<120x120xf32>
        %v20 = arith.addf %v18, %v19 : f32
        %v22 = arith.divf %v20, %cst9_0 : f32
        affine.store %v22, %A[%i2, %j3] : memref<120x120xf32>
      }
    }
  }
  return
}
