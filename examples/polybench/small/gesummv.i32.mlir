// PolyBench/C 4.2 linear-algebra/blas/gesummv, SMALL dataset (N=90), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @gesummv(%alpha: i32 {hls.name = "alpha"},
    %beta: i32 {hls.name = "beta"},
    %A: memref<90x90xi32> {hls.name = "A"},
    %B: memref<90x90xi32> {hls.name = "B"},
    %tmp: memref<90xi32> {hls.name = "tmp"},
    %x: memref<90xi32> {hls.name = "x"},
    %y: memref<90xi32> {hls.name = "y"}) {
  %c0 = arith.constant 0 : i32
  affine.for %i1 = 0 to 90 {
    affine.store %c0, %tmp[%i1] : memref<90xi32>
    affine.store %c0, %y[%i1] : memref<90xi32>
    affine.for %j3 = 0 to 90 {
      %v4 = affine.load %A[%i1, %j3] : memref<90x90xi32>
      %v5 = affine.load %x[%j3] : memref<90xi32>
      %v6 = arith.muli %v4, %v5 : i32
      %v7 = affine.load %tmp[%i1] : memref<90xi32>
      %v8 = arith.addi %v6, %v7 : i32
      affine.store %v8, %tmp[%i1] : memref<90xi32>
      %v9 = affine.load %B[%i1, %j3] : memref<90x90xi32>
      %v10 = affine.load %x[%j3] : memref<90xi32>
      %v11 = arith.muli %v9, %v10 : i32
      %v12 = affine.load %y[%i1] : memref<90xi32>
      %v13 = arith.addi %v11, %v12 : i32
      affine.store %v13, %y[%i1] : memref<90xi32>
    }
    %v14 = affine.load %tmp[%i1] : memref<90xi32>
    %v15 = arith.muli %alpha, %v14 : i32
    %v16 = affine.load %y[%i1] : memref<90xi32>
    %v17 = arith.muli %beta, %v16 : i32
    %v18 = arith.addi %v15, %v17 : i32
    affine.store %v18, %y[%i1] : memref<90xi32>
  }
  return
}
