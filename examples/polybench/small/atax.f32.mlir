// PolyBench/C 4.2 linear-algebra/kernels/atax, SMALL dataset (M=116, N=124), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @atax(%A: memref<116x124xf32> {hls.name = "A"},
    %x: memref<124xf32> {hls.name = "x"},
    %y: memref<124xf32> {hls.name = "y"},
    %tmp: memref<116xf32> {hls.name = "tmp"}) {
  %cst0_0 = arith.constant 0.0 : f32
  affine.for %i1 = 0 to 124 {
    affine.store %cst0_0, %y[%i1] : memref<124xf32>
  }
  affine.for %i3 = 0 to 116 {
    affine.store %cst0_0, %tmp[%i3] : memref<116xf32>
    affine.for %j4 = 0 to 124 {
      %v5 = affine.load %tmp[%i3] : memref<116xf32>
      %v6 = affine.load %A[%i3, %j4] : memref<116x124xf32>
      %v7 = affine.load %x[%j4] : memref<124xf32>
      %v8 = arith.mulf %v6, %v7 : f32
      %v9 = arith.addf %v5, %v8 : f32
      affine.store %v9, %tmp[%i3] : memref<116xf32>
    }
    affine.for %j10 = 0 to 124 {
      %v11 = affine.load %y[%j10] : memref<124xf32>
      %v12 = affine.load %A[%i3, %j10] : memref<116x124xf32>
      %v13 = affine.load %tmp[%i3] : memref<116xf32>
      %v14 = arith.mulf %v12, %v13 : f32
      %v15 = arith.addf %v11, %v14 : f32
      affine.store %v15, %y[%j10] : memref<124xf32>
    }
  }
  return
}
