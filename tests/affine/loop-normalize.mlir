// affine-loop-normalize: loops and parallel loops rewritten to start at 0
// with step 1 (the old induction variable rebuilt by an affine.apply at
// the top of the body), single-iteration loops promoted with
// promote-single-iter; the output is mlir-opt-22's.
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-loop-normalize %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-loop-normalize %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-loop-normalize=promote-single-iter=1 %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-loop-normalize=promote-single-iter=1 %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-loop-normalize=promote-single-iter=true %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-loop-normalize=promote-single-iter=true %s)

func.func @steps(%A: memref<100x100xf32>, %n: index, %m: index) {
  affine.for %i = 3 to 97 step 5 {
    affine.for %j = affine_map<(d0) -> (d0 - 1)>(%i) to min affine_map<(d0)[s0] -> (d0 + 7, s0)>(%i)[%n] step 2 {
      %v = affine.load %A[%i, %j] : memref<100x100xf32>
      affine.store %v, %A[%j, %i] : memref<100x100xf32>
    }
  }
  return
}

// -----

func.func @symbolic(%A: memref<?xf32>, %lb: index, %ub: index) -> f32 {
  %c0 = arith.constant 0.0 : f32
  %r = affine.for %i = %lb to %ub step 4 iter_args(%acc = %c0) -> f32 {
    %v = affine.load %A[%i] : memref<?xf32>
    %s = arith.addf %acc, %v : f32
    affine.yield %s : f32
  }
  return %r : f32
}

// -----

func.func @single(%A: memref<8xf32>, %k: index) {
  affine.for %i = 5 to 6 {
    affine.for %j = %k to affine_map<()[s0] -> (s0 + 1)>()[%k] {
      %v = affine.load %A[%i] : memref<8xf32>
      affine.store %v, %A[%j] : memref<8xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 1 {
      %v = affine.load %A[%i + %j] : memref<8xf32>
      "test.use"(%v) : (f32) -> ()
    }
  }
  return
}

// -----

func.func @max_lower_bound(%A: memref<64xf32>, %n: index) {
  affine.for %i = max affine_map<()[s0] -> (s0, 4)>()[%n] to 64 step 3 {
    %v = affine.load %A[%i] : memref<64xf32>
    "test.use"(%v) : (f32) -> ()
  }
  return
}

// -----

func.func @parallel(%A: memref<64x64xf32>, %n: index) {
  affine.parallel (%i, %j) = (2, %n) to (62, 60) step (4, 3) {
    affine.parallel (%k) = (%i) to (%i + 3) {
      %v = affine.load %A[%i, %k] : memref<64x64xf32>
      affine.store %v, %A[%j, %k] : memref<64x64xf32>
    }
  }
  affine.parallel (%i) = (max(0, %n)) to (64) step (2) {
    %v = affine.load %A[%i, %i] : memref<64x64xf32>
    "test.use"(%v) : (f32) -> ()
  }
  return
}
