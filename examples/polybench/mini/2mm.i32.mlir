// PolyBench/C 4.2 linear-algebra/kernels/2mm, MINI dataset (NI=16, NJ=18, NK=22, NL=24), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @k2mm(%alpha: i32 {hls.name = "alpha"},
    %beta: i32 {hls.name = "beta"},
    %tmp: memref<16x18xi32> {hls.name = "tmp"},
    %A: memref<16x22xi32> {hls.name = "A"},
    %B: memref<22x18xi32> {hls.name = "B"},
    %C: memref<18x24xi32> {hls.name = "C"},
    %D: memref<16x24xi32> {hls.name = "D"}) {
  %c0 = arith.constant 0 : i32
  affine.for %i1 = 0 to 16 {
    affine.for %j2 = 0 to 18 {
      affine.store %c0, %tmp[%i1, %j2] : memref<16x18xi32>
      affine.for %k4 = 0 to 22 {
        %v5 = affine.load %tmp[%i1, %j2] : memref<16x18xi32>
        %v6 = affine.load %A[%i1, %k4] : memref<16x22xi32>
        %v7 = arith.muli %alpha, %v6 : i32
        %v8 = affine.load %B[%k4, %j2] : memref<22x18xi32>
        %v9 = arith.muli %v7, %v8 : i32
        %v10 = arith.addi %v5, %v9 : i32
        affine.store %v10, %tmp[%i1, %j2] : memref<16x18xi32>
      }
    }
  }
  affine.for %i11 = 0 to 16 {
    affine.for %j12 = 0 to 24 {
      %v13 = affine.load %D[%i11, %j12] : memref<16x24xi32>
      %v14 = arith.muli %v13, %beta : i32
      affine.store %v14, %D[%i11, %j12] : memref<16x24xi32>
      affine.for %k15 = 0 to 18 {
        %v16 = affine.load %D[%i11, %j12] : memref<16x24xi32>
        %v17 = affine.load %tmp[%i11, %k15] : memref<16x18xi32>
        %v18 = affine.load %C[%k15, %j12] : memref<18x24xi32>
        %v19 = arith.muli %v17, %v18 : i32
        %v20 = arith.addi %v16, %v19 : i32
        affine.store %v20, %D[%i11, %j12] : memref<16x24xi32>
      }
    }
  }
  return
}
