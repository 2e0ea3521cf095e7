// PolyBench/C 4.2 linear-algebra/blas/gemver, MINI dataset (N=40), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @gemver(%alpha: f32 {hls.name = "alpha"},
    %beta: f32 {hls.name = "beta"},
    %A: memref<40x40xf32> {hls.name = "A"},
    %u1: memref<40xf32> {hls.name = "u1"},
    %v1: memref<40xf32> {hls.name = "v1"},
    %u2: memref<40xf32> {hls.name = "u2"},
    %v2: memref<40xf32> {hls.name = "v2"},
    %w: memref<40xf32> {hls.name = "w"},
    %x: memref<40xf32> {hls.name = "x"},
    %y: memref<40xf32> {hls.name = "y"},
    %z: memref<40xf32> {hls.name = "z"}) {
  affine.for %i1 = 0 to 40 {
    affine.for %j2 = 0 to 40 {
      %v3 = affine.load %A[%i1, %j2] : memref<40x40xf32>
      %v4 = affine.load %u1[%i1] : memref<40xf32>
      %v5 = affine.load %v1[%j2] : memref<40xf32>
      %v6 = arith.mulf %v4, %v5 : f32
      %v7 = arith.addf %v3, %v6 : f32
      %v8 = affine.load %u2[%i1] : memref<40xf32>
      %v9 = affine.load %v2[%j2] : memref<40xf32>
      %v10 = arith.mulf %v8, %v9 : f32
      %v11 = arith.addf %v7, %v10 : f32
      affine.store %v11, %A[%i1, %j2] : memref<40x40xf32>
    }
  }
  affine.for %i12 = 0 to 40 {
    affine.for %j13 = 0 to 40 {
      %v14 = affine.load %x[%i12] : memref<40xf32>
      %v15 = affine.load %A[%j13, %i12] : memref<40x40xf32>
      %v16 = arith.mulf %beta, %v15 : f32
      %v17 = affine.load %y[%j13] : memref<40xf32>
      %v18 = arith.mulf %v16, %v17 : f32
      %v19 = arith.addf %v14, %v18 : f32
      affine.store %v19, %x[%i12] : memref<40xf32>
    }
  }
  affine.for %i20 = 0 to 40 {
    %v21 = affine.load %x[%i20] : memref<40xf32>
    %v22 = affine.load %z[%i20] : memref<40xf32>
    %v23 = arith.addf %v21, %v22 : f32
    affine.store %v23, %x[%i20] : memref<40xf32>
  }
  affine.for %i24 = 0 to 40 {
    affine.for %j25 = 0 to 40 {
      %v26 = affine.load %w[%i24] : memref<40xf32>
      %v27 = affine.load %A[%i24, %j25] : memref<40x40xf32>
      %v28 = arith.mulf %alpha, %v27 : f32
      %v29 = affine.load %x[%j25] : memref<40xf32>
      %v30 = arith.mulf %v28, %v29 : f32
      %v31 = arith.addf %v26, %v30 : f32
      affine.store %v31, %w[%i24] : memref<40xf32>
    }
  }
  return
}
