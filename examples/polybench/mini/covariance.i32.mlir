// PolyBench/C 4.2 datamining/covariance, MINI dataset (M=28, N=32), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @covariance(%data: memref<32x28xi32> {hls.name = "data"},
    %cov: memref<28x28xi32> {hls.name = "cov"},
    %mean: memref<28xi32> {hls.name = "mean"}) {
  %c32 = arith.constant 32 : i32
  %c0 = arith.constant 0 : i32
  %c31 = arith.constant 31 : i32
  affine.for %j2 = 0 to 28 {
    affine.store %c0, %mean[%j2] : memref<28xi32>
    affine.for %i4 = 0 to 32 {
      %v5 = affine.load %mean[%j2] : memref<28xi32>
      %v6 = affine.load %data[%i4, %j2] : memref<32x28xi32>
      %v7 = arith.addi %v5, %v6 : i32
      affine.store %v7, %mean[%j2] : memref<28xi32>
    }
    %v8 = affine.load %mean[%j2] : memref<28xi32>
    %v9 = arith.divsi %v8, %c32 : i32
    affine.store %v9, %mean[%j2] : memref<28xi32>
  }
  affine.for %i10 = 0 to 32 {
    affine.for %j11 = 0 to 28 {
      %v12 = affine.load %data[%i10, %j11] : memref<32x28xi32>
      %v13 = affine.load %mean[%j11] : memref<28xi32>
      %v14 = arith.subi %v12, %v13 : i32
      affine.store %v14, %data[%i10, %j11] : memref<32x28xi32>
    }
  }
  affine.for %i15 = 0 to 28 {
    affine.for %j16 = affine_map<(d0) -> (d0)>(%i15) to 28 {
      affine.store %c0, %cov[%i15, %j16] : memref<28x28xi32>
      affine.for %k17 = 0 to 32 {
        %v18 = affine.load %cov[%i15, %j16] : memref<28x28xi32>
        %v19 = affine.load %data[%k17, %i15] : memref<32x28xi32>
        %v20 = affine.load %data[%k17, %j16] : memref<32x28xi32>
        %v21 = arith.muli %v19, %v20 : i32
        %v22 = arith.addi %v18, %v21 : i32
        affine.store %v22, %cov[%i15, %j16] : memref<28x28xi32>
      }
      %v23 = affine.load %cov[%i15, %j16] : memref<28x28xi32>
      %v25 = arith.divsi %v23, %c31 : i32
      affine.store %v25, %cov[%i15, %j16] : memref<28x28xi32>
      %v26 = affine.load %cov[%i15, %j16] : memref<28x28xi32>
      affine.store %v26, %cov[%j16, %i15] : memref<28x28xi32>
    }
  }
  return
}
