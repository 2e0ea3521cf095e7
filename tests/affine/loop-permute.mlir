// test-loop-permutation: perfect nests as deep as the permutation are
// interchanged (the body moves to the new innermost loop); with
// check-validity, only where no dependence is reversed. The output is
// mlir-opt-22's.
// RUN: diff <(silica opt --test-loop-permutation="permutation-map=1,0" %s) <(mlir-opt-22 --test-loop-permutation="permutation-map=1,0" %s)
// RUN: diff <(silica opt --test-loop-permutation="permutation-map=1,0 check-validity=1" %s) <(mlir-opt-22 --test-loop-permutation="permutation-map=1,0 check-validity=1" %s)
// RUN: diff <(silica opt --test-loop-permutation="permutation-map=2,0,1" %s) <(mlir-opt-22 --test-loop-permutation="permutation-map=2,0,1" %s)
// RUN: diff <(silica opt --test-loop-permutation="permutation-map=2,0,1 check-validity=true" %s) <(mlir-opt-22 --test-loop-permutation="permutation-map=2,0,1 check-validity=true" %s)
// RUN: diff <(silica opt --test-loop-permutation="permutation-map=1,2,0 check-validity=true" %s) <(mlir-opt-22 --test-loop-permutation="permutation-map=1,2,0 check-validity=true" %s)
// RUN: diff <(silica opt --test-loop-permutation %s) <(mlir-opt-22 --test-loop-permutation %s)
// RUN: not silica opt --test-loop-permutation="permutation-map=0,0" %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: invalid permutation map '0,0'
// RUN: not silica opt --test-loop-permutation="permutation-map=1,x" %s 2>&1 | FileCheck %s --check-prefix=UINT
// UINT: for the --permutation-map option: 'x' value invalid for uint argument!

// A forward dependence along both loops: (1, 0) stays valid when
// interchanged, (1, -1) does not.
func.func @stencils(%A: memref<32x32xf32>, %B: memref<32x32xf32>) {
  affine.for %i = 1 to 32 {
    affine.for %j = 0 to 32 {
      %v = affine.load %A[%i - 1, %j] : memref<32x32xf32>
      affine.store %v, %A[%i, %j] : memref<32x32xf32>
    }
  }
  affine.for %i = 1 to 32 {
    affine.for %j = 0 to 31 {
      %v = affine.load %B[%i - 1, %j + 1] : memref<32x32xf32>
      affine.store %v, %B[%i, %j] : memref<32x32xf32>
    }
  }
  return
}

// A 3-deep matmul nest (reduction along k) and its inner 2-deep nests.
func.func @matmul(%A: memref<8x6xf64>, %B: memref<6x5xf64>, %C: memref<8x5xf64>, %n: index) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 5 {
      affine.for %k = 0 to 6 {
        %a = affine.load %A[%i, %k] : memref<8x6xf64>
        %b = affine.load %B[%k, %j] : memref<6x5xf64>
        %c = affine.load %C[%i, %j] : memref<8x5xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<8x5xf64>
      }
    }
  }
  affine.for %j = 0 to 5 {
    affine.for %k = 0 to %n {
      %a = affine.load %A[%k, %j] : memref<8x6xf64>
      affine.store %a, %A[%k, %j + 1] : memref<8x6xf64>
    }
  }
  return
}
