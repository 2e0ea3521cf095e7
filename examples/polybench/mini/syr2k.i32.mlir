// PolyBench/C 4.2 linear-algebra/blas/syr2k, MINI dataset (M=20, N=30), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @syr2k(%alpha: i32 {hls.name = "alpha"},
    %beta: i32 {hls.name = "beta"},
    %C: memref<30x30xi32> {hls.name = "C"},
    %A: memref<30x20xi32> {hls.name = "A"},
    %B: memref<30x20xi32> {hls.name = "B"}) {
  affine.for %i1 = 0 to 30 {
    affine.for %j2 = 0 to affine_map<(d0) -> (d0 + 1)>(%i1) {
      %v3 = affine.load %C[%i1, %j2] : memref<30x30xi32>
      %v4 = arith.muli %v3, %beta : i32
      affine.store %v4, %C[%i1, %j2] : memref<30x30xi32>
    }
    affine.for %k5 = 0 to 20 {
      affine.for %j6 = 0 to affine_map<(d0) -> (d0 + 1)>(%i1) {
        %v7 = affine.load %C[%i1, %j6] : memref<30x30xi32>
        %v8 = affine.load %A[%j6, %k5] : memref<30x20xi32>
        %v9 = arith.muli %v8, %alpha : i32
        %v10 = affine.load %B[%i1, %k5] : memref<30x20xi32>
        %v11 = arith.muli %v9, %v10 : i32
        %v12 = affine.load %B[%j6, %k5] : memref<30x20xi32>
        %v13 = arith.muli %v12, %alpha : i32
        %v14 = affine.load %A[%i1, %k5] : memref<30x20xi32>
        %v15 = arith.muli %v13, %v14 : i32
        %v16 = arith.addi %v11, %v15 : i32
        %v17 = arith.addi %v7, %v16 : i32
        affine.store %v17, %C[%i1, %j6] : memref<30x30xi32>
      }
    }
  }
  return
}
