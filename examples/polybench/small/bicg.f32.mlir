// PolyBench/C 4.2 linear-algebra/kernels/bicg, SMALL dataset (M=116, N=124), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @bicg(%A: memref<124x116xf32> {hls.name = "A"},
    %s: memref<116xf32> {hls.name = "s"},
    %q: memref<124xf32> {hls.name = "q"},
    %p: memref<116xf32> {hls.name = "p"},
    %r: memref<124xf32> {hls.name = "r"}) {
  %cst0_0 = arith.constant 0.0 : f32
  affine.for %i1 = 0 to 116 {
    affine.store %cst0_0, %s[%i1] : memref<116xf32>
  }
  affine.for %i3 = 0 to 124 {
    affine.store %cst0_0, %q[%i3] : memref<124xf32>
    affine.for %j4 = 0 to 116 {
      %v5 = affine.load %s[%j4] : memref<116xf32>
      %v6 = affine.load %r[%i3] : memref<124xf32>
      %v7 = affine.load %A[%i3, %j4] : memref<124x116xf32>
      %v8 = arith.mulf %v6, %v7 : f32
      %v9 = arith.addf %v5, %v8 : f32
      affine.store %v9, %s[%j4] : memref<116xf32>
      %v10 = affine.load %q[%i3] : memref<124xf32>
      %v11 = affine.load %A[%i3, %j4] : memref<124x116xf32>
      %v12 = affine.load %p[%j4] : memref<116xf32>
      %v13 = arith.mulf %v11, %v12 : f32
      %v14 = arith.addf %v10, %v13 : f32
      affine.store %v14, %q[%i3] : memref<124xf32>
    }
  }
  return
}
