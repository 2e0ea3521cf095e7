// PolyBench/C 4.2 stencils/seidel-2d, MINI dataset (TSTEPS=20, N=40), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @seidel_2d(%A: memref<40x40xi32> {hls.name = "A"}) {
  %c9 = arith.constant 9 : i32
  affine.for %t1 = 0 to 20 {
    affine.for %i2 = 1 to 39 {
      affine.for %j3 = 1 to 39 {
        %v4 = affine.load %A[%i2 - 1, %j3 - 1] : memref<40x40xi32>
        %v5 = affine.load %A[%i2 - 1, %j3] : memref<40x40xi32>
        %v6 = arith.addi %v4, %v5 : i32
        %v7 = affine.load %A[%i2 - 1, %j3 + 1] : memref<40x40xi32>
        %v8 = arith.addi %v6, %v7 : i32
        %v9 = affine.load %A[%i2, %j3 - 1] : memref<40x40xi32>
        %v10 = arith.addi %v8, %v9 : i32
        %v11 = affine.load %A[%i2, %j3] : memref<40x40xi32>
        %v12 = arith.addi %v10, %v11 : i32
        %v13 = affine.load %A[%i2, %j3 + 1] : memref<40x40xi32>
        %v14 = arith.addi %v12, %v13 : i32
        %v15 = affine.load %A[%i2 + 1, %j3 - 1] : memref<40x40xi32>
        %v16 = arith.addi %v14, %v15 : i32
        %v17 = affine.load %A[%i2 + 1, %j3] : memref<40x40xi32>
        %v18 = arith.addi %v16, %v17 : i32
        %v19 = affine.load %A[%i2 + 1, %j3 + 1] : memref<40x40xi32>
        %v20 = arith.addi %v18, %v19 : i32
        %v22 = arith.divsi %v20, %c9 : i32
        affine.store %v22, %A[%i2, %j3] : memref<40x40xi32>
      }
    }
  }
  return
}
