// affine-loop-tile keeps every dependence: a band whose tiling could run
// a dependence backwards stays as it is. Where mlir-opt-22 differs (it
// only rejects components whose whole range is negative and not
// constant), silica's choice is the one that keeps the result: mlir-opt
// tiles @gauss_seidel and changes what it computes.
// RUN: silica opt --affine-loop-tile="tile-size=4" %s | FileCheck %s

// Distance (1, -1): tiling i and j would read A[i-1][j+1] before it is
// written.
// CHECK-LABEL: func.func @gauss_seidel
// CHECK-NEXT: affine.for %{{.*}} = 1 to 15 {
// CHECK-NEXT:   affine.for %{{.*}} = 1 to 15 {
func.func @gauss_seidel(%A: memref<16x16xi32>) {
  affine.for %i = 1 to 15 {
    affine.for %j = 1 to 15 {
      %a = affine.load %A[%i - 1, %j + 1] : memref<16x16xi32>
      %b = affine.load %A[%i, %j - 1] : memref<16x16xi32>
      %s = arith.addi %a, %b : i32
      affine.store %s, %A[%i, %j] : memref<16x16xi32>
    }
  }
  return
}

// Distance (1, 0) and (0, 1): a fully permutable band, tiled.
// CHECK-LABEL: func.func @wavefront
// CHECK-NEXT: affine.for %{{.*}} = 1 to 15 step 4 {
// CHECK-NEXT:   affine.for %{{.*}} = 1 to 15 step 4 {
func.func @wavefront(%A: memref<16x16xi32>) {
  affine.for %i = 1 to 15 {
    affine.for %j = 1 to 15 {
      %a = affine.load %A[%i - 1, %j] : memref<16x16xi32>
      %b = affine.load %A[%i, %j - 1] : memref<16x16xi32>
      %s = arith.addi %a, %b : i32
      affine.store %s, %A[%i, %j] : memref<16x16xi32>
    }
  }
  return
}

// A single loop is only strip-mined, whatever its body's dependences.
// CHECK-LABEL: func.func @transpose_rows
// CHECK-NEXT: affine.for %{{.*}} = 0 to 12 step 4 {
func.func @transpose_rows(%A: memref<12x12xf32>) {
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 12 {
      %v = affine.load %A[%j, %i] : memref<12x12xf32>
      affine.store %v, %A[%i, %j] : memref<12x12xf32>
    }
    affine.for %j = 0 to 12 {
      %v = affine.load %A[%j, %i] : memref<12x12xf32>
      affine.store %v, %A[%i, %j] : memref<12x12xf32>
    }
  }
  return
}
