// PolyBench/C 4.2 linear-algebra/blas/gemm, MINI dataset (NI=20, NJ=25, NK=30), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @gemm(%alpha: f32 {hls.name = "alpha"},
    %beta: f32 {hls.name = "beta"},
    %C: memref<20x25xf32> {hls.name = "C"},
    %A: memref<20x30xf32> {hls.name = "A"},
    %B: memref<30x25xf32> {hls.name = "B"}) {
  affine.for %i1 = 0 to 20 {
    affine.for %j2 = 0 to 25 {
      %v3 = affine.load %C[%i1, %j2] : memref<20x25xf32>
      %v4 = arith.mulf %v3, %beta : f32
      affine.store %v4, %C[%i1, %j2] : memref<20x25xf32>
    }
    affine.for %k5 = 0 to 30 {
      affine.for %j6 = 0 to 25 {
        %v7 = affine.load %C[%i1, %j6] : memref<20x25xf32>
        %v8 = affine.load %A[%i1, %k5] : memref<20x30xf32>
        %v9 = arith.mulf %alpha, %v8 : f32
        %v10 = affine.load %B[%k5, %j6] : memref<30x25xf32>
        %v11 = arith.mulf %v9, %v10 : f32
        %v12 = arith.addf %v7, %v11 : f32
        affine.store %v12, %C[%i1, %j6] : memref<20x25xf32>
      }
    }
  }
  return
}
