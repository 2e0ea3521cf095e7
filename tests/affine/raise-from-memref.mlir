// affine-raise-from-memref: memref.load/store whose indices are affine in
// loop induction variables and symbols (constants, sums, products with a
// dimension-free factor) become affine.load/store; the others stay. The
// output is mlir-opt-22's, alone and followed by canonicalization.
// RUN: diff <(silica opt --affine-raise-from-memref %s) <(mlir-opt-22 --affine-raise-from-memref %s)
// RUN: diff <(silica opt --affine-raise-from-memref --canonicalize %s) <(mlir-opt-22 --affine-raise-from-memref --canonicalize %s)

func.func @conv(%I: memref<18x18xf32>, %W: memref<3x3xf32>, %O: memref<8x8xf32>, %n: index) {
  %c2 = arith.constant 2 : index
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 3 {
        affine.for %l = 0 to 3 {
          %i2 = arith.muli %i, %c2 : index
          %r = arith.addi %i2, %k : index
          %j2 = arith.muli %c2, %j : index
          %c = arith.addi %j2, %l : index
          %x = memref.load %I[%r, %c] : memref<18x18xf32>
          %w = memref.load %W[%k, %l] : memref<3x3xf32>
          %o = memref.load %O[%i, %j] : memref<8x8xf32>
          %p = arith.mulf %x, %w : f32
          %s = arith.addf %o, %p : f32
          memref.store %s, %O[%i, %j] : memref<8x8xf32>
        }
      }
    }
  }
  return
}

func.func @symbols_and_others(%A: memref<?x?xf32>, %n: index, %m: index) {
  %c1 = arith.constant 1 : index
  affine.for %i = 0 to %n {
    %sq = arith.muli %i, %i : index
    %ns = arith.muli %n, %m : index
    %in = arith.muli %i, %n : index
    %d = arith.divui %i, %c1 : index
    %v = memref.load %A[%sq, %i] : memref<?x?xf32>
    %u = memref.load %A[%ns, %in] : memref<?x?xf32>
    %s = arith.addf %v, %u : f32
    memref.store %s, %A[%d, %c1] : memref<?x?xf32>
    memref.store %s, %A[%m, %n] : memref<?x?xf32>
  }
  %w = memref.load %A[%n, %c1] : memref<?x?xf32>
  memref.store %w, %A[%c1, %m] : memref<?x?xf32>
  return
}
