// PolyBench/C 4.2 linear-algebra/blas/trmm, SMALL dataset (M=60, N=80), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @trmm(%alpha: f32 {hls.name = "alpha"},
    %A: memref<60x60xf32> {hls.name = "A"},
    %B: memref<60x80xf32> {hls.name = "B"}) {
  affine.for %i1 = 0 to 60 {
    affine.for %j2 = 0 to 80 {
      affine.for %k3 = affine_map<(d0) -> (d0 + 1)>(%i1) to 60 {
        %v4 = affine.load %B[%i1, %j2] : memref<60x80xf32>
        %v5 = affine.load %A[%k3, %i1] : memref<60x60xf32>
        %v6 = affine.load %B[%k3, %j2] : memref<60x80xf32>
        %v7 = arith.mulf %v5, %v6 : f32
        %v8 = arith.addf %v4, %v7 : f32
        affine.store %v8, %B[%i1, %j2] : memref<60x80xf32>
      }
      %v9 = affine.load %B[%i1, %j2] : memref<60x80xf32>
      %v10 = arith.mulf %alpha, %v9 : f32
      affine.store %v10, %B[%i1, %j2] : memref<60x80xf32>
    }
  }
  return
}
