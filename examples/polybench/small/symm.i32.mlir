// PolyBench/C 4.2 linear-algebra/blas/symm, SMALL dataset (M=60, N=80), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @symm(%alpha: i32 {hls.name = "alpha"},
    %beta: i32 {hls.name = "beta"},
    %C: memref<60x80xi32> {hls.name = "C"},
    %A: memref<60x60xi32> {hls.name = "A"},
    %B: memref<60x80xi32> {hls.name = "B"}) {
  %c0 = arith.constant 0 : i32
  affine.for %i1 = 0 to 60 {
    affine.for %j2 = 0 to 80 {
      %k_r6 = affine.for %k4 = 0 to affine_map<(d0) -> (d0)>(%i1) iter_args(%temp25 = %c0) -> (i32) {
        %v7 = affine.load %C[%k4, %j2] : memref<60x80xi32>
        %v8 = affine.load %B[%i1, %j2] : memref<60x80xi32>
        %v9 = arith.muli %alpha, %v8 : i32
        %v10 = affine.load %A[%i1, %k4] : memref<60x60xi32>
        %v11 = arith.muli %v9, %v10 : i32
        %v12 = arith.addi %v7, %v11 : i32
        affine.store %v12, %C[%k4, %j2] : memref<60x80xi32>
        %v13 = affine.load %B[%k4, %j2] : memref<60x80xi32>
        %v14 = affine.load %A[%i1, %k4] : memref<60x60xi32>
        %v15 = arith.muli %v13, %v14 : i32
        %v16 = arith.addi %temp25, %v15 : i32
        affine.yield %v16 : i32
      }
      %v17 = affine.load %C[%i1, %j2] : memref<60x80xi32>
      %v18 = arith.muli %beta, %v17 : i32
      %v19 = affine.load %B[%i1, %j2] : memref<60x80xi32>
      %v20 = arith.muli %alpha, %v19 : i32
      %v21 = affine.load %A[%i1, %i1] : memref<60x60xi32>
      %v22 = arith.muli %v20, %v21 : i32
      %v23 = arith.addi %v18, %v22 : i32
      %v24 = arith.muli %alpha, %k_r6 : i32
      %v25 = arith.addi %v23, %v24 : i32
      affine.store %v25, %C[%i1, %j2] : memref<60x80xi32>
    }
  }
  return
}
