// PolyBench/C 4.2 datamining/covariance, MINI dataset (M=28, N=32), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @covariance(%float_n: f32 {hls.name = "float_n"},
    %data: memref<32x28xf32> {hls.name = "data"},
    %cov: memref<28x28xf32> {hls.name = "cov"},
    %mean: memref<28xf32> {hls.name = "mean"}) {
  %cst0_0 = arith.constant 0.0 : f32
  %cst1_0 = arith.constant 1.0 : f32
  affine.for %j1 = 0 to 28 {
    affine.store %cst0_0, %mean[%j1] : memref<28xf32>
    affine.for %i3 = 0 to 32 {
      %v4 = affine.load %mean[%j1] : memref<28xf32>
      %v5 = affine.load %data[%i3, %j1] : memref<32x28xf32>
      %v6 = arith.addf %v4, %v5 : f32
      affine.store %v6, %mean[%j1] : memref<28xf32>
    }
    %v7 = affine.load %mean[%j1] : memref<28xf32>
    %v8 = arith.divf %v7, %float_n : f32
    affine.store %v8, %mean[%j1] : memref<28xf32>
  }
  affine.for %i9 = 0 to 32 {
    affine.for %j10 = 0 to 28 {
      %v11 = affine.load %data[%i9, %j10] : memref<32x28xf32>
      %v12 = affine.load %mean[%j10] : memref<28xf32>
      %v13 = arith.subf %v11, %v12 : f32
      affine.store %v13, %data[%i9, %j10] : memref<32x28xf32>
    }
  }
  affine.for %i14 = 0 to 28 {
    affine.for %j15 = affine_map<(d0) -> (d0)>(%i14) to 28 {
      affine.store %cst0_0, %cov[%i14, %j15] : memref<28x28xf32>
      affine.for %k16 = 0 to 32 {
        %v17 = affine.load %cov[%i14, %j15] : memref<28x28xf32>
        %v18 = affine.load %data[%k16, %i14] : memref<32x28xf32>
        %v19 = affine.load %data[%k16, %j15] : memref<32x28xf32>
        %v20 = arith.mulf %v18, %v19 : f32
        %v21 = arith.addf %v17, %v20 : f32
        affine.store %v21, %cov[%i14, %j15] : memref<28x28xf32>
      }
      %v22 = affine.load %cov[%i14, %j15] : memref<28x28xf32>
      %v24 = arith.subf %float_n, %cst1_0 : f32
      %v25 = arith.divf %v22, %v24 : f32
      affine.store %v25, %cov[%i14, %j15] : memref<28x28xf32>
      %v26 = affine.load %cov[%i14, %j15] : memref<28x28xf32>
      affine.store %v26, %cov[%j15, %i14] : memref<28x28xf32>
    }
  }
  return
}
