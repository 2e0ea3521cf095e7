// `test-loop-fusion`'s slices (valid and not, forward and backward, a
// loop only one access pair slices taking its whole domain in the
// union, tiles, quotients and remainders), remarks checked by both tools.
// RUN: silica opt --test-loop-fusion=test-loop-fusion-slice-computation --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --test-loop-fusion=test-loop-fusion-slice-computation --split-input-file --verify-diagnostics %s

// The consumer reads row k + 1 in its inner loop and row k after it: the
// backward slice of the producer runs rows k to k + 1 and columns 1 to 3;
// the forward slice of the consumer is wider than its own loops.
func.func @rows_then_columns(%m: memref<12x6xf32>, %out: memref<12xf32>) {
  %c2 = arith.constant 2 : index
  %f = arith.constant 2.0 : f32
  affine.for %i = 0 to 12 {
    // expected-remark@-1 {{Incorrect slice ( src loop: 1, dst loop: 0, depth: 1 : insert point: (1, 1) loop bounds: [(d0) -> (d0 - 1), (d0) -> (d0 + 1)] [(d0) -> (1), (d0) -> (4)] )}}
    // expected-remark@-2 {{Incorrect slice ( src loop: 1, dst loop: 0, depth: 2 : insert point: (2, 1) loop bounds: [(d0, d1) -> (d0 - 1), (d0, d1) -> (d0 + 1)] [(d0, d1) -> (0), (d0, d1) -> (6)] )}}
    affine.for %j = 0 to 6 {
      affine.store %f, %m[%i, %j] : memref<12x6xf32>
    }
  }
  affine.for %k = 0 to 10 {
    // expected-remark@-1 {{slice ( src loop: 0, dst loop: 1, depth: 1 : insert point: (1, 0) loop bounds: [(d0) -> (d0), (d0) -> (d0 + 2)] [(d0) -> (1), (d0) -> (4)] )}}
    affine.for %l = 1 to 4 {
      %v = affine.load %m[%k + 1, %l] : memref<12x6xf32>
      affine.store %v, %out[%k] : memref<12xf32>
    }
    %w = affine.load %m[%k, %c2] : memref<12x6xf32>
    affine.store %w, %out[%k] : memref<12xf32>
  }
  return
}

// -----

// Rows read by tiles of 16: the backward slice at the tile loop runs rows
// 16 * i to 16 * i + 15 (the producer loop's own lower bound 0 is
// redundant); the forward slice is a quotient and a remainder.
func.func @row_tiles(%out: memref<32x8xf32>) {
  %f = arith.constant 1.0 : f32
  %p = memref.alloc() : memref<32x8xf32>
  affine.for %r = 0 to 32 {
    // expected-remark@-1 {{slice ( src loop: 1, dst loop: 0, depth: 1 : insert point: (1, 1) loop bounds: [(d0) -> (d0 floordiv 16), (d0) -> (d0 floordiv 16 + 1)] [(d0) -> (0), (d0) -> (8)] [(d0) -> (d0 mod 16), (d0) -> (d0 mod 16 + 1)] )}}
    // expected-remark@-2 {{slice ( src loop: 1, dst loop: 0, depth: 2 : insert point: (2, 1) loop bounds: [(d0, d1) -> (d0 floordiv 16), (d0, d1) -> (d0 floordiv 16 + 1)] [(d0, d1) -> (d1), (d0, d1) -> (d1 + 1)] [(d0, d1) -> (d0 mod 16), (d0, d1) -> (d0 mod 16 + 1)] )}}
    affine.for %c = 0 to 8 {
      affine.store %f, %p[%r, %c] : memref<32x8xf32>
    }
  }
  affine.for %i = 0 to 2 {
    // expected-remark@-1 {{slice ( src loop: 0, dst loop: 1, depth: 1 : insert point: (1, 0) loop bounds: [(d0) -> (d0 * 16), (d0) -> (d0 * 16 + 16)] [(d0) -> (0), (d0) -> (8)] )}}
    // expected-remark@-2 {{slice ( src loop: 0, dst loop: 1, depth: 2 : insert point: (2, 0) loop bounds: [(d0, d1) -> (d0 * 16), (d0, d1) -> (d0 * 16 + 16)] [(d0, d1) -> (d1), (d0, d1) -> (d1 + 1)] )}}
    // expected-remark@-3 {{slice ( src loop: 0, dst loop: 1, depth: 3 : insert point: (3, 0) loop bounds: [(d0, d1, d2) -> (d0 * 16 + d2), (d0, d1, d2) -> (d0 * 16 + d2 + 1)] [(d0, d1, d2) -> (d1), (d0, d1, d2) -> (d1 + 1)] )}}
    affine.for %j = 0 to 8 {
      affine.for %ii = 0 to 16 {
        %x = affine.load %p[16 * %i + %ii, %j] : memref<32x8xf32>
        affine.store %x, %out[16 * %i + %ii, %j] : memref<32x8xf32>
      }
    }
  }
  return
}
