// affine-loop-coalescing: bands of normalized affine.for loops whose
// bounds are defined above the band become one loop over the product of
// the trip counts, the old induction variables rebuilt with floordiv/mod.
// The output is mlir-opt-22's (followed by cse, as in MLIR's tests).
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-loop-coalescing --cse %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-loop-coalescing --cse %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-loop-coalescing %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-loop-coalescing %s)

func.func @constant(%A: memref<4x6x8xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 6 {
      affine.for %k = 0 to 8 {
        %v = affine.load %A[%i, %j, %k] : memref<4x6x8xf32>
        affine.store %v, %A[%i, %k floordiv 2, %j] : memref<4x6x8xf32>
      }
    }
  }
  return
}

// -----

func.func @symbolic(%A: memref<?x?xf32>, %n: index, %m: index) {
  affine.for %i = 0 to min affine_map<()[s0] -> (s0, 100)>()[%n] {
    affine.for %j = 0 to %m {
      "test.use"(%i, %j) : (index, index) -> ()
    }
  }
  return
}

// -----

func.func @partial_band(%A: memref<?x?xf32>, %n: index) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      affine.for %k = 0 to %n {
        affine.for %l = 0 to 5 {
          "test.use"(%i, %j, %k, %l) : (index, index, index, index) -> ()
        }
      }
    }
  }
  affine.for %i = 1 to 10 {
    affine.for %j = 0 to 5 {
      "test.use"(%i, %j) : (index, index) -> ()
    }
  }
  return
}
