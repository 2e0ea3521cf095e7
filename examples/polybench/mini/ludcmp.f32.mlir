// PolyBench/C 4.2 linear-algebra/solvers/ludcmp, MINI dataset (N=40), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @ludcmp(%A: memref<40x40xf32> {hls.name = "A"},
    %b: memref<40xf32> {hls.name = "b"},
    %x: memref<40xf32> {hls.name = "x"},
    %y: memref<40xf32> {hls.name = "y"}) {
  affine.for %i1 = 0 to 40 {
    affine.for %j2 = 0 to affine_map<(d0) -> (d0)>(%i1) {
      %v3 = affine.load %A[%i1, %j2] : memref<40x40xf32>
      %k_r6 = affine.for %k4 = 0 to affine_map<(d0) -> (d0)>(%j2) iter_args(%w5 = %v3) -> (f32) {
        %v7 = affine.load %A[%i1, %k4] : memref<40x40xf32>
        %v8 = affine.load %A[%k4, %j2] : memref<40x40xf32>
        %v9 = arith.mulf %v7, %v8 : f32
        %v10 = arith.subf %w5, %v9 : f32
        affine.yield %v10 : f32
      }
      %v11 = affine.load %A[%j2, %j2] : memref<40x40xf32>
      %v12 = arith.divf %k_r6, %v11 : f32
      affine.store %v12, %A[%i1, %j2] : memref<40x40xf32>
    }
    affine.for %j13 = affine_map<(d0) -> (d0)>(%i1) to 40 {
      %v14 = affine.load %A[%i1, %j13] : memref<40x40xf32>
      %k_r17 = affine.for %k15 = 0 to affine_map<(d0) -> (d0)>(%i1) iter_args(%w16 = %v14) -> (f32) {
        %v18 = affine.load %A[%i1, %k15] : memref<40x40xf32>
        %v19 = affine.load %A[%k15, %j13] : memref<40x40xf32>
        %v20 = arith.mulf %v18, %v19 : f32
        %v21 = arith.subf %w16, %v20 : f32
        affine.yield %v21 : f32
      }
      affine.store %k_r17, %A[%i1, %j13] : memref<40x40xf32>
    }
  }
  affine.for %i22 = 0 to 40 {
    %v23 = affine.load %b[%i22] : memref<40xf32>
    %j_r26 = affine.for %j24 = 0 to affine_map<(d0) -> (d0)>(%i22) iter_args(%w25 = %v23) -> (f32) {
      %v27 = affine.load %A[%i22, %j24] : memref<40x40xf32>
      %v28 = affine.load %y[%j24] : memref<40xf32>
      %v29 = arith.mulf %v27, %v28 : f32
      %v30 = arith.subf %w25, %v29 : f32
      affine.yield %v30 : f32
    }
    affine.store %j_r26, %y[%i22] : memref<40xf32>
  }
  affine.for %ii31 = 0 to 40 {
    %v32 = affine.load %y[39 - %ii31] : memref<40xf32>
    %j_r35 = affine.for %j33 = affine_map<(d0) -> (40 - d0)>(%ii31) to 40 iter_args(%w34 = %v32) -> (f32) {
      %v36 = affine.load %A[39 - %ii31, %j33] : memref<40x40xf32>
      %v37 = affine.load %x[%j33] : memref<40xf32>
      %v38 = arith.mulf %v36, %v37 : f32
      %v39 = arith.subf %w34, %v38 : f32
      affine.yield %v39 : f32
    }
    %v40 = affine.load %A[39 - %ii31, 39 - %ii31] : memref<40x40xf32>
    %v41 = arith.divf %j_r35, %v40 : f32
    affine.store %v41, %x[39 - %ii31] : memref<40xf32>
  }
  return
}
