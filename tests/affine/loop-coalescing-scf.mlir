// affine-loop-coalescing on scf.for nests: each loop normalized (from 0
// to its trip count by 1, the induction variable rebuilt by an
// affine.apply), the band merged into its outermost loop over the product
// of the trip counts and the induction variables recovered with
// affine.delinearize_index; iteration arguments chained through the band
// are kept. And an affine.for band whose second loop carries iteration
// arguments it yields unchanged. The output is mlir-opt-22's.
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-loop-coalescing --cse %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-loop-coalescing --cse %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-loop-coalescing %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-loop-coalescing %s)

func.func @offsets_and_steps(%A: memref<64x64xf32>) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c30 = arith.constant 30 : index
  %c61 = arith.constant 61 : index
  scf.for %i = %c2 to %c30 step %c4 {
    scf.for %j = %c3 to %c61 step %c3 {
      %v = memref.load %A[%i, %j] : memref<64x64xf32>
      memref.store %v, %A[%j, %i] : memref<64x64xf32>
    }
  }
  return
}

// -----

func.func @dynamic(%lb: index, %ub: index, %s: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %lb to %ub step %s {
    scf.for %j = %c0 to %n step %c1 {
      scf.for %k = %i to %ub step %c1 {
        "test.use"(%i, %j, %k) : (index, index, index) -> ()
      }
    }
  }
  return
}

// -----

func.func @chained_sum(%A: memref<8x16xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%a = %zero) -> (i32) {
    %s = scf.for %j = %c0 to %c16 step %c1 iter_args(%b = %a) -> (i32) {
      %v = memref.load %A[%i, %j] : memref<8x16xi32>
      %t = arith.addi %b, %v : i32
      scf.yield %t : i32
    }
    scf.yield %s : i32
  }
  return %r : i32
}

// -----

// The inner loop starts from a constant, not the outer loop's argument:
// only the inner loops without arguments coalesce.
func.func @broken_chain(%A: memref<4x4x4xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (i32) {
    %s = scf.for %j = %c0 to %c4 step %c1 iter_args(%b = %zero) -> (i32) {
      scf.for %k = %c0 to %c4 step %c1 {
        scf.for %l = %c1 to %c4 step %c1 {
          "test.use"(%j, %k, %l) : (index, index, index) -> ()
        }
      }
      scf.yield %b : i32
    }
    %t = arith.addi %a, %s : i32
    scf.yield %t : i32
  }
  return %r : i32
}

// -----

func.func @affine_pass_through(%M: memref<?xi64>) {
  affine.for %i = 0 to 12 {
    %0 = affine.for %j = 0 to 32 iter_args(%m = %M) -> (memref<?xi64>) {
      %v = arith.index_cast %j : index to i64
      memref.store %v, %m[%i] : memref<?xi64>
      affine.yield %m : memref<?xi64>
    }
  }
  return
}
