// PolyBench/C 4.2 linear-algebra/blas/gemver, SMALL dataset (N=120), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @gemver(%alpha: i32 {hls.name = "alpha"},
    %beta: i32 {hls.name = "beta"},
    %A: memref<120x120xi32> {hls.name = "A"},
    %u1: memref<120xi32> {hls.name = "u1"},
    %v1: memref<120xi32> {hls.name = "v1"},
    %u2: memref<120xi32> {hls.name = "u2"},
    %v2: memref<120xi32> {hls.name = "v2"},
    %w: memref<120xi32> {hls.name = "w"},
    %x: memref<120xi32> {hls.name = "x"},
    %y: memref<120xi32> {hls.name = "y"},
    %z: memref<120xi32> {hls.name = "z"}) {
  affine.for %i1 = 0 to 120 {
    affine.for %j2 = 0 to 120 {
      %v3 = affine.load %A[%i1, %j2] : memref<120x120xi32>
      %v4 = affine.load %u1[%i1] : memref<120xi32>
      %v5 = affine.load %v1[%j2] : memref<120xi32>
      %v6 = arith.muli %v4, %v5 : i32
      %v7 = arith.addi %v3, %v6 : i32
      %v8 = affine.load %u2[%i1] : memref<120xi32>
      %v9 = affine.load %v2[%j2] : memref<120xi32>
      %v10 = arith.muli %v8, %v9 : i32
      %v11 = arith.addi %v7, %v10 : i32
      affine.store %v11, %A[%i1, %j2] : memref<120x120xi32>
    }
  }
  affine.for %i12 = 0 to 120 {
    affine.for %j13 = 0 to 120 {
      %v14 = affine.load %x[%i12] : memref<120xi32>
      %v15 = affine.load %A[%j13, %i12] : memref<120x120xi32>
      %v16 = arith.muli %beta, %v15 : i32
      %v17 = affine.load %y[%j13] : memref<120xi32>
      %v18 = arith.muli %v16, %v17 : i32
      %v19 = arith.addi %v14, %v18 : i32
      affine.store %v19, %x[%i12] : memref<120xi32>
    }
  }
  affine.for %i20 = 0 to 120 {
    %v21 = affine.load %x[%i20] : memref<120xi32>
    %v22 = affine.load %z[%i20] : memref<120xi32>
    %v23 = arith.addi %v21, %v22 : i32
    affine.store %v23, %x[%i20] : memref<120xi32>
  }
  affine.for %i24 = 0 to 120 {
    affine.for %j25 = 0 to 120 {
      %v26 = affine.load %w[%i24] : memref<120xi32>
      %v27 = affine.load %A[%i24, %j25] : memref<120x120xi32>
      %v28 = arith.muli %alpha, %v27 : i32
      %v29 = affine.load %x[%j25] : memref<120xi32>
      %v30 = arith.muli %v28, %v29 : i32
      %v31 = arith.addi %v26, %v30 : i32
      affine.store %v31, %w[%i24] : memref<120xi32>
    }
  }
  return
}
