// PolyBench/C 4.2 stencils/jacobi-1d, SMALL dataset (TSTEPS=40, N=120), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @jacobi_1d(%A: memref<120xi32> {hls.name = "A"},
    %B: memref<120xi32> {hls.name = "B"}) {
  %c3 = arith.constant 3 : i32
  affine.for %t1 = 0 to 40 {
    affine.for %i2 = 1 to 119 {
      %v3 = affine.load %A[%i2 - 1] : memref<120xi32>
      %v4 = affine.load %A[%i2] : memref<120xi32>
      %v5 = arith.addi %v3, %v4 : i32
      %v6 = affine.load %A[%i2 + 1] : memref<120xi32>
      %v7 = arith.addi %v5, %v6 : i32
      %v9 = arith.divsi %v7, %c3 : i32
      affine.store %v9, %B[%i2] : memref<120xi32>
    }
    affine.for %i10 = 1 to 119 {
      %v11 = affine.load %B[%i10 - 1] : memref<120xi32>
      %v12 = affine.load %B[%i10] : memref<120xi32>
      %v13 = arith.addi %v11, %v12 : i32
      %v14 = affine.load %B[%i10 + 1] : memref<120xi32>
      %v15 = arith.addi %v13, %v14 : i32
      %v16 = arith.divsi %v15, %c3 : i32
      affine.store %v16, %A[%i10] : memref<120xi32>
    }
  }
  return
}
