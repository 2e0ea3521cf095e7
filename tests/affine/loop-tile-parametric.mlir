// test-affine-parametric-tile: every band tiled by SSA tile sizes, the
// first arguments of its function (MLIR's test pass; inter-tile loops to
// lb + (ub - lb) ceildiv t, intra-tile loops from (iv - lb) * t + lb to
// the minimum of (iv - lb) * t + t * step + lb and the original bounds).
// The output is mlir-opt-22's (errors: loop-tile-parametric-errors.mlir).
// RUN: diff <(silica opt --split-input-file --test-affine-parametric-tile %s) <(mlir-opt-22 --split-input-file --test-affine-parametric-tile %s)

func.func @box(%t0: index, %t1: index, %A: memref<100x60xf32>) {
  affine.for %i = 0 to 100 {
    affine.for %j = 4 to 60 step 2 {
      %v = affine.load %A[%i, %j] : memref<100x60xf32>
      affine.store %v, %A[%i, %j - 4] : memref<100x60xf32>
    }
  }
  return
}

// -----

func.func @symbolic_bounds(%t0: index, %t1: index, %A: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  affine.for %i = 1 to min affine_map<()[s0, s1] -> (s0, s1 floordiv 2)>()[%m, %n] {
    affine.for %j = 0 to affine_map<(d0)[s0] -> (d0 + s0 + 3)>(%m)[%n] step 3 {
      %v = affine.load %A[%i, %j] : memref<?x?xf32>
      affine.store %v, %A[%j, %i] : memref<?x?xf32>
    }
  }
  return
}
