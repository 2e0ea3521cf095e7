// PolyBench/C 4.2 linear-algebra/kernels/3mm, MINI dataset (NI=16, NJ=18, NK=20, NL=22, NM=24), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @k3mm(%E: memref<16x18xf32> {hls.name = "E"},
    %A: memref<16x20xf32> {hls.name = "A"},
    %B: memref<20x18xf32> {hls.name = "B"},
    %F: memref<18x22xf32> {hls.name = "F"},
    %C: memref<18x24xf32> {hls.name = "C"},
    %D: memref<24x22xf32> {hls.name = "D"},
    %G: memref<16x22xf32> {hls.name = "G"}) {
  %cst0_0 = arith.constant 0.0 : f32
  affine.for %i1 = 0 to 16 {
    affine.for %j2 = 0 to 18 {
      affine.store %cst0_0, %E[%i1, %j2] : memref<16x18xf32>
      affine.for %k4 = 0 to 20 {
        %v5 = affine.load %E[%i1, %j2] : memref<16x18xf32>
        %v6 = affine.load %A[%i1, %k4] : memref<16x20xf32>
        %v7 = affine.load %B[%k4, %j2] : memref<20x18xf32>
        %v8 = arith.mulf %v6, %v7 : f32
        %v9 = arith.addf %v5, %v8 : f32
        affine.store %v9, %E[%i1, %j2] : memref<16x18xf32>
      }
    }
  }
  affine.for %i10 = 0 to 18 {
    affine.for %j11 = 0 to 22 {
      affine.store %cst0_0, %F[%i10, %j11] : memref<18x22xf32>
      affine.for %k12 = 0 to 24 {
        %v13 = affine.load %F[%i10, %j11] : memref<18x22xf32>
        %v14 = affine.load %C[%i10, %k12] : memref<18x24xf32>
        %v15 = affine.load %D[%k12, %j11] : memref<24x22xf32>
        %v16 = arith.mulf %v14, %v15 : f32
        %v17 = arith.addf %v13, %v16 : f32
        affine.store %v17, %F[%i10, %j11] : memref<18x22xf32>
      }
    }
  }
  affine.for %i18 = 0 to 16 {
    affine.for %j19 = 0 to 22 {
      affine.store %cst0_0, %G[%i18, %j19] : memref<16x22xf32>
      affine.for %k20 = 0 to 18 {
        %v21 = affine.load %G[%i18, %j19] : memref<16x22xf32>
        %v22 = affine.load %E[%i18, %k20] : memref<16x18xf32>
        %v23 = affine.load %F[%k20, %j19] : memref<18x22xf32>
        %v24 = arith.mulf %v22, %v23 : f32
        %v25 = arith.addf %v21, %v24 : f32
        affine.store %v25, %G[%i18, %j19] : memref<16x22xf32>
      }
    }
  }
  return
}
