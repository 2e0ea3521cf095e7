// PolyBench/C 4.2 linear-algebra/kernels/3mm, MINI dataset (NI=16, NJ=18, NK=20, NL=22, NM=24), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @k3mm(%E: memref<16x18xi32> {hls.name = "E"},
    %A: memref<16x20xi32> {hls.name = "A"},
    %B: memref<20x18xi32> {hls.name = "B"},
    %F: memref<18x22xi32> {hls.name = "F"},
    %C: memref<18x24xi32> {hls.name = "C"},
    %D: memref<24x22xi32> {hls.name = "D"},
    %G: memref<16x22xi32> {hls.name = "G"}) {
  %c0 = arith.constant 0 : i32
  affine.for %i1 = 0 to 16 {
    affine.for %j2 = 0 to 18 {
      affine.store %c0, %E[%i1, %j2] : memref<16x18xi32>
      affine.for %k4 = 0 to 20 {
        %v5 = affine.load %E[%i1, %j2] : memref<16x18xi32>
        %v6 = affine.load %A[%i1, %k4] : memref<16x20xi32>
        %v7 = affine.load %B[%k4, %j2] : memref<20x18xi32>
        %v8 = arith.muli %v6, %v7 : i32
        %v9 = arith.addi %v5, %v8 : i32
        affine.store %v9, %E[%i1, %j2] : memref<16x18xi32>
      }
    }
  }
  affine.for %i10 = 0 to 18 {
    affine.for %j11 = 0 to 22 {
      affine.store %c0, %F[%i10, %j11] : memref<18x22xi32>
      affine.for %k12 = 0 to 24 {
        %v13 = affine.load %F[%i10, %j11] : memref<18x22xi32>
        %v14 = affine.load %C[%i10, %k12] : memref<18x24xi32>
        %v15 = affine.load %D[%k12, %j11] : memref<24x22xi32>
        %v16 = arith.muli %v14, %v15 : i32
        %v17 = arith.addi %v13, %v16 : i32
        affine.store %v17, %F[%i10, %j11] : memref<18x22xi32>
      }
    }
  }
  affine.for %i18 = 0 to 16 {
    affine.for %j19 = 0 to 22 {
      affine.store %c0, %G[%i18, %j19] : memref<16x22xi32>
      affine.for %k20 = 0 to 18 {
        %v21 = affine.load %G[%i18, %j19] : memref<16x22xi32>
        %v22 = affine.load %E[%i18, %k20] : memref<16x18xi32>
        %v23 = affine.load %F[%k20, %j19] : memref<18x22xi32>
        %v24 = arith.muli %v22, %v23 : i32
        %v25 = arith.addi %v21, %v24 : i32
        affine.store %v25, %G[%i18, %j19] : memref<16x22xi32>
      }
    }
  }
  return
}
