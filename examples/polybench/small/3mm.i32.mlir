// PolyBench/C 4.2 linear-algebra/kernels/3mm, SMALL dataset (NI=40, NJ=50, NK=60, NL=70, NM=80), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @k3mm(%E: memref<40x50xi32> {hls.name = "E"},
    %A: memref<40x60xi32> {hls.name = "A"},
    %B: memref<60x50xi32> {hls.name = "B"},
    %F: memref<50x70xi32> {hls.name = "F"},
    %C: memref<50x80xi32> {hls.name = "C"},
    %D: memref<80x70xi32> {hls.name = "D"},
    %G: memref<40x70xi32> {hls.name = "G"}) {
  %c0 = arith.constant 0 : i32
  affine.for %i1 = 0 to 40 {
    affine.for %j2 = 0 to 50 {
      affine.store %c0, %E[%i1, %j2] : memref<40x50xi32>
      affine.for %k4 = 0 to 60 {
        %v5 = affine.load %E[%i1, %j2] : memref<40x50xi32>
        %v6 = affine.load %A[%i1, %k4] : memref<40x60xi32>
        %v7 = affine.load %B[%k4, %j2] : memref<60x50xi32>
        %v8 = arith.muli %v6, %v7 : i32
        %v9 = arith.addi %v5, %v8 : i32
        affine.store %v9, %E[%i1, %j2] : memref<40x50xi32>
      }
    }
  }
  affine.for %i10 = 0 to 50 {
    affine.for %j11 = 0 to 70 {
      affine.store %c0, %F[%i10, %j11] : memref<50x70xi32>
      affine.for %k12 = 0 to 80 {
        %v13 = affine.load %F[%i10, %j11] : memref<50x70xi32>
        %v14 = affine.load %C[%i10, %k12] : memref<50x80xi32>
        %v15 = affine.load %D[%k12, %j11] : memref<80x70xi32>
        %v16 = arith.muli %v14, %v15 : i32
        %v17 = arith.addi %v13, %v16 : i32
        affine.store %v17, %F[%i10, %j11] : memref<50x70xi32>
      }
    }
  }
  affine.for %i18 = 0 to 40 {
    affine.for %j19 = 0 to 70 {
      affine.store %c0, %G[%i18, %j19] : memref<40x70xi32>
      affine.for %k20 = 0 to 50 {
        %v21 = affine.load %G[%i18, %j19] : memref<40x70xi32>
        %v22 = affine.load %E[%i18, %k20] : memref<40x50xi32>
        %v23 = affine.load %F[%k20, %j19] : memref<50x70xi32>
        %v24 = arith.muli %v22, %v23 : i32
        %v25 = arith.addi %v21, %v24 : i32
        affine.store %v25, %G[%i18, %j19] : memref<40x70xi32>
      }
    }
  }
  return
}
