// PolyBench/C 4.2 linear-algebra/kernels/2mm, MINI dataset (NI=16, NJ=18, NK=22, NL=24), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @k2mm(%alpha: f32 {hls.name = "alpha"},
    %beta: f32 {hls.name = "beta"},
    %tmp: memref<16x18xf32> {hls.name = "tmp"},
    %A: memref<16x22xf32> {hls.name = "A"},
    %B: memref<22x18xf32> {hls.name = "B"},
    %C: memref<18x24xf32> {hls.name = "C"},
    %D: memref<16x24xf32> {hls.name = "D"}) {
  %cst0_0 = arith.constant 0.0 : f32
  affine.for %i1 = 0 to 16 {
    affine.for %j2 = 0 to 18 {
      affine.store %cst0_0, %tmp[%i1, %j2] : memref<16x18xf32>
      affine.for %k4 = 0 to 22 {
        %v5 = affine.load %tmp[%i1, %j2] : memref<16x18xf32>
        %v6 = affine.load %A[%i1, %k4] : memref<16x22xf32>
        %v7 = arith.mulf %alpha, %v6 : f32
        %v8 = affine.load %B[%k4, %j2] : memref<22x18xf32>
        %v9 = arith.mulf %v7, %v8 : f32
        %v10 = arith.addf %v5, %v9 : f32
        affine.store %v10, %tmp[%i1, %j2] : memref<16x18xf32>
      }
    }
  }
  affine.for %i11 = 0 to 16 {
    affine.for %j12 = 0 to 24 {
      %v13 = affine.load %D[%i11, %j12] : memref<16x24xf32>
      %v14 = arith.mulf %v13, %beta : f32
      affine.store %v14, %D[%i11, %j12] : memref<16x24xf32>
      affine.for %k15 = 0 to 18 {
        %v16 = affine.load %D[%i11, %j12] : memref<16x24xf32>
        %v17 = affine.load %tmp[%i11, %k15] : memref<16x18xf32>
        %v18 = affine.load %C[%k15, %j12] : memref<18x24xf32>
        %v19 = arith.mulf %v17, %v18 : f32
        %v20 = arith.addf %v16, %v19 : f32
        affine.store %v20, %D[%i11, %j12] : memref<16x24xf32>
      }
    }
  }
  return
}
