// PolyBench/C 4.2 stencils/jacobi-2d, SMALL dataset (TSTEPS=40, N=90), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @jacobi_2d(%A: memref<90x90xi32> {hls.name = "A"},
    %B: memref<90x90xi32> {hls.name = "B"}) {
  %c5 = arith.constant 5 : i32
  affine.for %t1 = 0 to 40 {
    affine.for %i2 = 1 to 89 {
      affine.for %j3 = 1 to 89 {
        %v4 = affine.load %A[%i2, %j3] : memref<90x90xi32>
        %v5 = affine.load %A[%i2, %j3 - 1] : memref<90x90xi32>
        %v6 = arith.addi %v4, %v5 : i32
        %v7 = affine.load %A[%i2, %j3 + 1] : memref<90x90xi32>
        %v8 = arith.addi %v6, %v7 : i32
        %v9 = affine.load %A[%i2 + 1, %j3] : memref<90x90xi32>
        %v10 = arith.addi %v8, %v9 : i32
        %v11 = affine.load %A[%i2 - 1, %j3] : memref<90x90xi32>
        %v12 = arith.addi %v10, %v11 : i32
        %v14 = arith.divsi %v12, %c5 : i32
        affine.store %v14, %B[%i2, %j3] : memref<90x90xi32>
      }
    }
    affine.for %i15 = 1 to 89 {
      affine.for %j16 = 1 to 89 {
        %v17 = affine.load %B[%i15, %j16] : memref<90x90xi32>
        %v18 = affine.load %B[%i15, %j16 - 1] : memref<90x90xi32>
        %v19 = arith.addi %v17, %v18 : i32
        %v20 = affine.load %B[%i15, %j16 + 1] : memref<90x90xi32>
        %v21 = arith.addi %v19, %v20 : i32
        %v22 = affine.load %B[%i15 + 1, %j16] : memref<90x90xi32>
        %v23 = arith.addi %v21, %v22 : i32
        %v24 = affine.load %B[%i15 - 1, %j16] : memref<90x90xi32>
        %v25 = arith.addi %v23, %v24 : i32
        %v26 = arith.divsi %v25, %c5 : i32
        affine.store %v26, %A[%i15, %j16] : memref<90x90xi32>
      }
    }
  }
  return
}
