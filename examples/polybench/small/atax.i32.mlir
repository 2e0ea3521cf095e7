// PolyBench/C 4.2 linear-algebra/kernels/atax, SMALL dataset (M=116, N=124), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @atax(%A: memref<116x124xi32> {hls.name = "A"},
    %x: memref<124xi32> {hls.name = "x"},
    %y: memref<124xi32> {hls.name = "y"},
    %tmp: memref<116xi32> {hls.name = "tmp"}) {
  %c0 = arith.constant 0 : i32
  affine.for %i1 = 0 to 124 {
    affine.store %c0, %y[%i1] : memref<124xi32>
  }
  affine.for %i3 = 0 to 116 {
    affine.store %c0, %tmp[%i3] : memref<116xi32>
    affine.for %j4 = 0 to 124 {
      %v5 = affine.load %tmp[%i3] : memref<116xi32>
      %v6 = affine.load %A[%i3, %j4] : memref<116x124xi32>
      %v7 = affine.load %x[%j4] : memref<124xi32>
      %v8 = arith.muli %v6, %v7 : i32
      %v9 = arith.addi %v5, %v8 : i32
      affine.store %v9, %tmp[%i3] : memref<116xi32>
    }
    affine.for %j10 = 0 to 124 {
      %v11 = affine.load %y[%j10] : memref<124xi32>
      %v12 = affine.load %A[%i3, %j10] : memref<116x124xi32>
      %v13 = affine.load %tmp[%i3] : memref<116xi32>
      %v14 = arith.muli %v12, %v13 : i32
      %v15 = arith.addi %v11, %v14 : i32
      affine.store %v15, %y[%j10] : memref<124xi32>
    }
  }
  return
}
