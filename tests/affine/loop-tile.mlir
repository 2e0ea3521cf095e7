// affine-loop-tile: bands of perfectly nested loops tiled with fixed
// sizes, per-loop sizes, the cache model and full/partial tile
// separation; the output is mlir-opt-22's.
// RUN: diff <(silica opt --split-input-file --affine-loop-tile="tile-size=8" %s) <(mlir-opt-22 --split-input-file --affine-loop-tile="tile-size=8" %s)
// RUN: diff <(silica opt --split-input-file --affine-loop-tile="tile-sizes=3,16" %s) <(mlir-opt-22 --split-input-file --affine-loop-tile="tile-sizes=3,16" %s)
// RUN: diff <(silica opt --split-input-file --affine-loop-tile="tile-sizes=5" %s) <(mlir-opt-22 --split-input-file --affine-loop-tile="tile-sizes=5" %s)
// RUN: diff <(silica opt --split-input-file --affine-loop-tile="tile-sizes=2,3,4,5,6" %s) <(mlir-opt-22 --split-input-file --affine-loop-tile="tile-sizes=2,3,4,5,6" %s)
// RUN: diff <(silica opt --split-input-file --affine-loop-tile %s) <(mlir-opt-22 --split-input-file --affine-loop-tile %s)
// RUN: diff <(silica opt --split-input-file --affine-loop-tile="cache-size=1" %s) <(mlir-opt-22 --split-input-file --affine-loop-tile="cache-size=1" %s)
// RUN: diff <(silica opt --split-input-file --affine-loop-tile="cache-size=16" %s) <(mlir-opt-22 --split-input-file --affine-loop-tile="cache-size=16" %s)
// RUN: diff <(silica opt --split-input-file --affine-loop-tile="cache-size=0" %s) <(mlir-opt-22 --split-input-file --affine-loop-tile="cache-size=0" %s)
// RUN: diff <(silica opt --split-input-file --affine-loop-tile="tile-size=7 separate" %s) <(mlir-opt-22 --split-input-file --affine-loop-tile="tile-size=7 separate" %s)
// RUN: diff <(silica opt --split-input-file --affine-loop-tile="tile-sizes=4,6 separate" %s) <(mlir-opt-22 --split-input-file --affine-loop-tile="tile-sizes=4,6 separate" %s)
// RUN: not silica opt --affine-loop-tile="tile-sizes=4,-2" %s 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: for the --tile-sizes option: '-2' value invalid for uint argument!
// RUN: not silica opt --affine-loop-tile="tile-sizes=0" %s 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: tile sizes must be positive

func.func @gemm(%A: memref<60x70xf32>, %B: memref<70x80xf32>, %C: memref<60x80xf32>) {
  affine.for %i = 0 to 60 {
    affine.for %j = 0 to 80 {
      affine.for %k = 0 to 70 {
        %a = affine.load %A[%i, %k] : memref<60x70xf32>
        %b = affine.load %B[%k, %j] : memref<70x80xf32>
        %c = affine.load %C[%i, %j] : memref<60x80xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<60x80xf32>
      }
    }
  }
  return
}

// -----

// Symbolic and max/min bounds, a non-unit step, an imperfect nest.
func.func @symbolic(%A: memref<?x?xf64>, %n: index, %m: index, %lo: index) {
  %c0 = arith.constant 0 : index
  %d = memref.dim %A, %c0 : memref<?x?xf64>
  affine.for %i = max affine_map<()[s0] -> (0, s0)>()[%lo] to min affine_map<()[s0, s1] -> (s0, s1 - 3)>()[%n, %d] step 2 {
    affine.for %j = 1 to affine_map<()[s0] -> (s0 * 2)>()[%m] {
      %v = affine.load %A[%i, %j] : memref<?x?xf64>
      %w = arith.addf %v, %v : f64
      affine.store %w, %A[%i, %j - 1] : memref<?x?xf64>
    }
    affine.for %j = 0 to 10 {
      %v = affine.load %A[%i, %j + 1] : memref<?x?xf64>
      affine.store %v, %A[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// -----

// Trip counts below the tile size, a triangular nest (not tiled), and
// loops with iter_args (not tiled).
func.func @small_and_triangular(%A: memref<100xi32>, %B: memref<100xi32>, %x: index) -> i32 {
  affine.for %i = affine_map<(d0) -> (d0 + 1)>(%x) to affine_map<(d0) -> (d0 + 4)>(%x) {
    affine.for %j = 0 to 3 {
      %v = affine.load %A[%i + %j] : memref<100xi32>
      affine.store %v, %B[%j] : memref<100xi32>
    }
  }
  affine.for %i = 0 to 50 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %v = affine.load %A[%j] : memref<100xi32>
      affine.store %v, %A[%i] : memref<100xi32>
    }
  }
  %c0 = arith.constant 0 : i32
  %r = affine.for %i = 0 to 100 iter_args(%s = %c0) -> i32 {
    %v = affine.load %A[%i] : memref<100xi32>
    %t = arith.addi %s, %v : i32
    affine.yield %t : i32
  }
  return %r : i32
}

// -----

// Vector elements and a strided-free 3-d stencil for the cache model.
func.func @stencil(%A: memref<64x64x64xvector<4xf32>>, %B: memref<64x64x64xvector<4xf32>>) {
  affine.for %i = 1 to 63 {
    affine.for %j = 1 to 63 {
      affine.for %k = 1 to 63 {
        %a = affine.load %A[%i - 1, %j, %k] : memref<64x64x64xvector<4xf32>>
        %b = affine.load %A[%i + 1, %j, %k + 1] : memref<64x64x64xvector<4xf32>>
        %s = arith.addf %a, %b : vector<4xf32>
        affine.store %s, %B[%i, %j, %k] : memref<64x64x64xvector<4xf32>>
      }
    }
  }
  return
}
