// PolyBench/C 4.2 linear-algebra/kernels/mvt, MINI dataset (N=40), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @mvt(%x1: memref<40xi32> {hls.name = "x1"},
    %x2: memref<40xi32> {hls.name = "x2"},
    %y_1: memref<40xi32> {hls.name = "y_1"},
    %y_2: memref<40xi32> {hls.name = "y_2"},
    %A: memref<40x40xi32> {hls.name = "A"}) {
  affine.for %i1 = 0 to 40 {
    affine.for %j2 = 0 to 40 {
      %v3 = affine.load %x1[%i1] : memref<40xi32>
      %v4 = affine.load %A[%i1, %j2] : memref<40x40xi32>
      %v5 = affine.load %y_1[%j2] : memref<40xi32>
      %v6 = arith.muli %v4, %v5 : i32
      %v7 = arith.addi %v3, %v6 : i32
      affine.store %v7, %x1[%i1] : memref<40xi32>
    }
  }
  affine.for %i8 = 0 to 40 {
    affine.for %j9 = 0 to 40 {
      %v10 = affine.load %x2[%i8] : memref<40xi32>
      %v11 = affine.load %A[%j9, %i8] : memref<40x40xi32>
      %v12 = affine.load %y_2[%j9] : memref<40xi32>
      %v13 = arith.muli %v11, %v12 : i32
      %v14 = arith.addi %v10, %v13 : i32
      affine.store %v14, %x2[%i8] : memref<40xi32>
    }
  }
  return
}
