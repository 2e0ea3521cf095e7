// affine-loop-tile refuses the bands mlir-opt-22 refuses (a dependence
// component whose range is negative and not constant) and, beyond it,
// bands with a constant negative distance along a band loop: mlir-opt
// tiles @gauss_seidel and changes what it computes. Components whose
// range holds negative and positive values (the accumulation of
// @accumulate, carried by the inner loops) do not stop tiling, as in
// mlir-opt.
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

// A band of one loop: MLIR's check looks at the components along every
// common loop, and the dependence carried by %i has one in [-11, -1]
// along the inner %j, so the band stays, as in mlir-opt-22.
// CHECK-LABEL: func.func @transpose_rows
// CHECK-NEXT: affine.for %{{.*}} = 0 to 12 {
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

// The update of S[i] is carried by j with components (0, 1, [-7, 7]):
// tiled, as mlir-opt-22 tiles it.
// CHECK-LABEL: func.func @accumulate
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 step 4 {
// CHECK-NEXT:   affine.for %{{.*}} = 0 to 8 step 4 {
// CHECK-NEXT:     affine.for %{{.*}} = 0 to 8 step 4 {
func.func @accumulate(%A: memref<8x8x8xi32>, %S: memref<8xi32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 8 {
        %a = affine.load %A[%i, %j, %k] : memref<8x8x8xi32>
        %s = affine.load %S[%i] : memref<8xi32>
        %t = arith.addi %s, %a : i32
        affine.store %t, %S[%i] : memref<8xi32>
      }
    }
  }
  return
}
