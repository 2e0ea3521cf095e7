// PolyBench/C 4.2 linear-algebra/blas/syr2k, MINI dataset (M=20, N=30), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @syr2k(%alpha: f32 {hls.name = "alpha"},
    %beta: f32 {hls.name = "beta"},
    %C: memref<30x30xf32> {hls.name = "C"},
    %A: memref<30x20xf32> {hls.name = "A"},
    %B: memref<30x20xf32> {hls.name = "B"}) {
  affine.for %i1 = 0 to 30 {
    affine.for %j2 = 0 to affine_map<(d0) -> (d0 + 1)>(%i1) {
      %v3 = affine.load %C[%i1, %j2] : memref<30x30xf32>
      %v4 = arith.mulf %v3, %beta : f32
      affine.store %v4, %C[%i1, %j2] : memref<30x30xf32>
    }
    affine.for %k5 = 0 to 20 {
      affine.for %j6 = 0 to affine_map<(d0) -> (d0 + 1)>(%i1) {
        %v7 = affine.load %C[%i1, %j6] : memref<30x30xf32>
        %v8 = affine.load %A[%j6, %k5] : memref<30x20xf32>
        %v9 = arith.mulf %v8, %alpha : f32
        %v10 = affine.load %B[%i1, %k5] : memref<30x20xf32>
        %v11 = arith.mulf %v9, %v10 : f32
        %v12 = affine.load %B[%j6, %k5] : memref<30x20xf32>
        %v13 = arith.mulf %v12, %alpha : f32
        %v14 = affine.load %A[%i1, %k5] : memref<30x20xf32>
        %v15 = arith.mulf %v13, %v14 : f32
        %v16 = arith.addf %v11, %v15 : f32
        %v17 = arith.addf %v7, %v16 : f32
        affine.store %v17, %C[%i1, %j6] : memref<30x30xf32>
      }
    }
  }
  return
}
