// PolyBench/C 4.2 datamining/correlation, MINI dataset (M=28, N=32), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @correlation(%float_n: f32 {hls.name = "float_n"},
    %data: memref<32x28xf32> {hls.name = "data"},
    %corr: memref<28x28xf32> {hls.name = "corr"},
    %mean: memref<28xf32> {hls.name = "mean"},
    %stddev: memref<28xf32> {hls.name = "stddev"}) {
  %cst0_1 = arith.constant 0.1 : f32
  %cst0_0 = arith.constant 0.0 : f32
  %cst1_0 = arith.constant 1.0 : f32
  affine.for %j2 = 0 to 28 {
    affine.store %cst0_0, %mean[%j2] : memref<28xf32>
    affine.for %i4 = 0 to 32 {
      %v5 = affine.load %mean[%j2] : memref<28xf32>
      %v6 = affine.load %data[%i4, %j2] : memref<32x28xf32>
      %v7 = arith.addf %v5, %v6 : f32
      affine.store %v7, %mean[%j2] : memref<28xf32>
    }
    %v8 = affine.load %mean[%j2] : memref<28xf32>
    %v9 = arith.divf %v8, %float_n : f32
    affine.store %v9, %mean[%j2] : memref<28xf32>
  }
  affine.for %j10 = 0 to 28 {
    affine.store %cst0_0, %stddev[%j10] : memref<28xf32>
    affine.for %i11 = 0 to 32 {
      %v12 = affine.load %stddev[%j10] : memref<28xf32>
      %v13 = affine.load %data[%i11, %j10] : memref<32x28xf32>
      %v14 = affine.load %mean[%j10] : memref<28xf32>
      %v15 = arith.subf %v13, %v14 : f32
      %v16 = affine.load %data[%i11, %j10] : memref<32x28xf32>
      %v17 = affine.load %mean[%j10] : memref<28xf32>
      %v18 = arith.subf %v16, %v17 : f32
      %v19 = arith.mulf %v15, %v18 : f32
      %v20 = arith.addf %v12, %v19 : f32
      affine.store %v20, %stddev[%j10] : memref<28xf32>
    }
    %v21 = affine.load %stddev[%j10] : memref<28xf32>
    %v22 = arith.divf %v21, %float_n : f32
    affine.store %v22, %stddev[%j10] : memref<28xf32>
    %v23 = affine.load %stddev[%j10] : memref<28xf32>
    %v24 = math.sqrt %v23 : f32
    affine.store %v24, %stddev[%j10] : memref<28xf32>
    %v25 = affine.load %stddev[%j10] : memref<28xf32>
    %p26 = arith.cmpf ole, %v25, %cst0_1 : f32
    %v28 = affine.load %stddev[%j10] : memref<28xf32>
    %v29 = arith.select %p26, %cst1_0, %v28 : f32
    affine.store %v29, %stddev[%j10] : memref<28xf32>
  }
  affine.for %i30 = 0 to 32 {
    affine.for %j31 = 0 to 28 {
      %v32 = affine.load %data[%i30, %j31] : memref<32x28xf32>
      %v33 = affine.load %mean[%j31] : memref<28xf32>
      %v34 = arith.subf %v32, %v33 : f32
      affine.store %v34, %data[%i30, %j31] : memref<32x28xf32>
      %v35 = affine.load %data[%i30, %j31] : memref<32x28xf32>
      %v36 = math.sqrt %float_n : f32
      %v37 = affine.load %stddev[%j31] : memref<28xf32>
      %v38 = arith.mulf %v36, %v37 : f32
      %v39 = arith.divf %v35, %v38 : f32
      affine.store %v39, %data[%i30, %j31] : memref<32x28xf32>
    }
  }
  affine.for %i40 = 0 to 27 {
    affine.store %cst1_0, %corr[%i40, %i40] : memref<28x28xf32>
    affine.for %j41 = affine_map<(d0) -> (d0 + 1)>(%i40) to 28 {
      affine.store %cst0_0, %corr[%i40, %j41] : memref<28x28xf32>
      affine.for %k42 = 0 to 32 {
        %v43 = affine.load %corr[%i40, %j41] : memref<28x28xf32>
        %v44 = affine.load %data[%k42, %i40] : memref<32x28xf32>
        %v45 = affine.load %data[%k42, %j41] : memref<32x28xf32>
        %v46 = arith.mulf %v44, %v45 : f32
        %v47 = arith.addf %v43, %v46 : f32
        affine.store %v47, %corr[%i40, %j41] : memref<28x28xf32>
      }
      %v48 = affine.load %corr[%i40, %j41] : memref<28x28xf32>
      affine.store %v48, %corr[%j41, %i40] : memref<28x28xf32>
    }
  }
  affine.store %cst1_0, %corr[27, 27] : memref<28x28xf32>
  return
}
