// PolyBench/C 4.2 linear-algebra/blas/syrk, SMALL dataset (M=60, N=80), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @syrk(%alpha: f32 {hls.name = "alpha"},
    %beta: f32 {hls.name = "beta"},
    %C: memref<80x80xf32> {hls.name = "C"},
    %A: memref<80x60xf32> {hls.name = "A"}) {
  affine.for %i1 = 0 to 80 {
    affine.for %j2 = 0 to affine_map<(d0) -> (d0 + 1)>(%i1) {
      %v3 = affine.load %C[%i1, %j2] : memref<80x80xf32>
      %v4 = arith.mulf %v3, %beta : f32
      affine.store %v4, %C[%i1, %j2] : memref<80x80xf32>
    }
    affine.for %k5 = 0 to 60 {
      affine.for %j6 = 0 to affine_map<(d0) -> (d0 + 1)>(%i1) {
        %v7 = affine.load %C[%i1, %j6] : memref<80x80xf32>
        %v8 = affine.load %A[%i1, %k5] : memref<80x60xf32>
        %v9 = arith.mulf %alpha, %v8 : f32
        %v10 = affine.load %A[%j6, %k5] : memref<80x60xf32>
        %v11 = arith.mulf %v9, %v10 : f32
        %v12 = arith.addf %v7, %v11 : f32
        affine.store %v12, %C[%i1, %j6] : memref<80x80xf32>
      }
    }
  }
  return
}
