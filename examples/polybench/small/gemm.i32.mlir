// PolyBench/C 4.2 linear-algebra/blas/gemm, SMALL dataset (NI=60, NJ=70, NK=80), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @gemm(%alpha: i32 {hls.name = "alpha"},
    %beta: i32 {hls.name = "beta"},
    %C: memref<60x70xi32> {hls.name = "C"},
    %A: memref<60x80xi32> {hls.name = "A"},
    %B: memref<80x70xi32> {hls.name = "B"}) {
  affine.for %i1 = 0 to 60 {
    affine.for %j2 = 0 to 70 {
      %v3 = affine.load %C[%i1, %j2] : memref<60x70xi32>
      %v4 = arith.muli %v3, %beta : i32
      affine.store %v4, %C[%i1, %j2] : memref<60x70xi32>
    }
    affine.for %k5 = 0 to 80 {
      affine.for %j6 = 0 to 70 {
        %v7 = affine.load %C[%i1, %j6] : memref<60x70xi32>
        %v8 = affine.load %A[%i1, %k5] : memref<60x80xi32>
        %v9 = arith.muli %alpha, %v8 : i32
        %v10 = affine.load %B[%k5, %j6] : memref<80x70xi32>
        %v11 = arith.muli %v9, %v10 : i32
        %v12 = arith.addi %v7, %v11 : i32
        affine.store %v12, %C[%i1, %j6] : memref<60x70xi32>
      }
    }
  }
  return
}
