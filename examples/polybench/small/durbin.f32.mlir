// PolyBench/C 4.2 linear-algebra/solvers/durbin, SMALL dataset (N=120), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @durbin(%r: memref<120xf32> {hls.name = "r"},
    %y: memref<120xf32> {hls.name = "y"}) {
  %cst1_0 = arith.constant 1.0 : f32
  %cst0_0 = arith.constant 0.0 : f32
  %z = memref.alloc() : memref<120xf32>
  %v1 = affine.load %r[0] : memref<120xf32>
  %v2 = arith.negf %v1 : f32
  affine.store %v2, %y[0] : memref<120xf32>
  %v4 = affine.load %r[0] : memref<120xf32>
  %v5 = arith.negf %v4 : f32
  %k_r9:2 = affine.for %k6 = 1 to 120 iter_args(%alpha7 = %v5, %beta8 = %cst1_0) -> (f32, f32) {
    %v10 = arith.mulf %alpha7, %alpha7 : f32
    %v11 = arith.subf %cst1_0, %v10 : f32
    %v12 = arith.mulf %v11, %beta8 : f32
    %i_r16 = affine.for %i14 = 0 to affine_map<(d0) -> (d0)>(%k6) iter_args(%sum15 = %cst0_0) -> (f32) {
      %v17 = affine.load %r[%k6 - %i14 - 1] : memref<120xf32>
      %v18 = affine.load %y[%i14] : memref<120xf32>
      %v19 = arith.mulf %v17, %v18 : f32
      %v20 = arith.addf %sum15, %v19 : f32
      affine.yield %v20 : f32
    }
    %v21 = affine.load %r[%k6] : memref<120xf32>
    %v22 = arith.addf %v21, %i_r16 : f32
    %v23 = arith.negf %v22 : f32
    %v24 = arith.divf %v23, %v12 : f32
    affine.for %i25 = 0 to affine_map<(d0) -> (d0)>(%k6) {
      %v26 = affine.load %y[%i25] : memref<120xf32>
      %v27 = affine.load %y[%k6 - %i25 - 1] : memref<120xf32>
      %v28 = arith.mulf %v24, %v27 : f32
      %v29 = arith.addf %v26, %v28 : f32
      affine.store %v29, %z[%i25] : memref<120xf32>
    }
    affine.for %i30 = 0 to affine_map<(d0) -> (d0)>(%k6) {
      %v31 = affine.load %z[%i30] : memref<120xf32>
      affine.store %v31, %y[%i30] : memref<120xf32>
    }
    affine.store %v24, %y[%k6] : memref<120xf32>
    affine.yield %v24, %v12 : f32, f32
  }
  return
}
