// PolyBench/C 4.2 linear-algebra/blas/syrk, SMALL dataset (M=60, N=80), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @syrk(%alpha: i32 {hls.name = "alpha"},
    %beta: i32 {hls.name = "beta"},
    %C: memref<80x80xi32> {hls.name = "C"},
    %A: memref<80x60xi32> {hls.name = "A"}) {
  affine.for %i1 = 0 to 80 {
    affine.for %j2 = 0 to affine_map<(d0) -> (d0 + 1)>(%i1) {
      %v3 = affine.load %C[%i1, %j2] : memref<80x80xi32>
      %v4 = arith.muli %v3, %beta : i32
      affine.store %v4, %C[%i1, %j2] : memref<80x80xi32>
    }
    affine.for %k5 = 0 to 60 {
      affine.for %j6 = 0 to affine_map<(d0) -> (d0 + 1)>(%i1) {
        %v7 = affine.load %C[%i1, %j6] : memref<80x80xi32>
        %v8 = affine.load %A[%i1, %k5] : memref<80x60xi32>
        %v9 = arith.muli %alpha, %v8 : i32
        %v10 = affine.load %A[%j6, %k5] : memref<80x60xi32>
        %v11 = arith.muli %v9, %v10 : i32
        %v12 = arith.addi %v7, %v11 : i32
        affine.store %v12, %C[%i1, %j6] : memref<80x80xi32>
      }
    }
  }
  return
}
