// PolyBench/C 4.2 linear-algebra/kernels/2mm, SMALL dataset (NI=40, NJ=50, NK=70, NL=80), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @k2mm(%alpha: i32 {hls.name = "alpha"},
    %beta: i32 {hls.name = "beta"},
    %tmp: memref<40x50xi32> {hls.name = "tmp"},
    %A: memref<40x70xi32> {hls.name = "A"},
    %B: memref<70x50xi32> {hls.name = "B"},
    %C: memref<50x80xi32> {hls.name = "C"},
    %D: memref<40x80xi32> {hls.name = "D"}) {
  %c0 = arith.constant 0 : i32
  affine.for %i1 = 0 to 40 {
    affine.for %j2 = 0 to 50 {
      affine.store %c0, %tmp[%i1, %j2] : memref<40x50xi32>
      affine.for %k4 = 0 to 70 {
        %v5 = affine.load %tmp[%i1, %j2] : memref<40x50xi32>
        %v6 = affine.load %A[%i1, %k4] : memref<40x70xi32>
        %v7 = arith.muli %alpha, %v6 : i32
        %v8 = affine.load %B[%k4, %j2] : memref<70x50xi32>
        %v9 = arith.muli %v7, %v8 : i32
        %v10 = arith.addi %v5, %v9 : i32
        affine.store %v10, %tmp[%i1, %j2] : memref<40x50xi32>
      }
    }
  }
  affine.for %i11 = 0 to 40 {
    affine.for %j12 = 0 to 80 {
      %v13 = affine.load %D[%i11, %j12] : memref<40x80xi32>
      %v14 = arith.muli %v13, %beta : i32
      affine.store %v14, %D[%i11, %j12] : memref<40x80xi32>
      affine.for %k15 = 0 to 50 {
        %v16 = affine.load %D[%i11, %j12] : memref<40x80xi32>
        %v17 = affine.load %tmp[%i11, %k15] : memref<40x50xi32>
        %v18 = affine.load %C[%k15, %j12] : memref<50x80xi32>
        %v19 = arith.muli %v17, %v18 : i32
        %v20 = arith.addi %v16, %v19 : i32
        affine.store %v20, %D[%i11, %j12] : memref<40x80xi32>
      }
    }
  }
  return
}
