// Memory dependences between affine accesses: distances of recurrences,
// strided and modular subscripts, symbolic and triangular bounds,
// conditions and dead code; the remarks of
// `test-memref-dependence-check`, checked by both tools.
// RUN: silica opt --test-memref-dependence-check --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --test-memref-dependence-check --split-input-file --verify-diagnostics %s

func.func @recurrence(%a: memref<100xf32>) {
  affine.for %i = 1 to 100 {
    %v = affine.load %a[%i - 1] : memref<100xf32>
    // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
    affine.store %v, %a[%i] : memref<100xf32>
    // expected-remark@above {{dependence from 1 to 0 at depth 1 = [1, 1]}}
    // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
  }
  return
}

// -----

func.func @skewed_2d(%a: memref<64x64xf32>) {
  affine.for %i = 1 to 64 {
    affine.for %j = 0 to 63 {
      %v = affine.load %a[%i - 1, %j + 1] : memref<64x64xf32>
      // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 3 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 3 = false}}
      affine.store %v, %a[%i, %j] : memref<64x64xf32>
      // expected-remark@above {{dependence from 1 to 0 at depth 1 = [1, 1][-1, -1]}}
      // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 1 to 0 at depth 3 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 3 = false}}
    }
  }
  return
}

// -----

func.func @even_odd(%a: memref<200xf32>) {
  affine.for %i = 0 to 50 {
    %v = affine.load %a[2 * %i + 1] : memref<200xf32>
    // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
    affine.store %v, %a[2 * %i] : memref<200xf32>
    // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
  }
  return
}

// -----

func.func @stepped(%a: memref<64xf32>) {
  affine.for %i = 0 to 64 step 4 {
    %v = affine.load %a[%i + 2] : memref<64xf32>
    // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 2 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 3 at depth 1 = false}}
    affine.store %v, %a[%i] : memref<64xf32>
    // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 2 at depth 1 = true}}
    // expected-remark@above {{dependence from 1 to 3 at depth 1 = true}}
  }
  affine.for %k = 0 to 64 step 4 {
    %w = affine.load %a[%k + 8] : memref<64xf32>
    // expected-remark@above {{dependence from 2 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 2 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 2 to 2 at depth 1 = false}}
    // expected-remark@above {{dependence from 2 to 2 at depth 2 = false}}
    // expected-remark@above {{dependence from 2 to 3 at depth 1 = [8, 8]}}
    // expected-remark@above {{dependence from 2 to 3 at depth 2 = false}}
    affine.store %w, %a[%k] : memref<64xf32>
    // expected-remark@above {{dependence from 3 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 3 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 3 to 2 at depth 1 = false}}
    // expected-remark@above {{dependence from 3 to 2 at depth 2 = false}}
    // expected-remark@above {{dependence from 3 to 3 at depth 1 = false}}
    // expected-remark@above {{dependence from 3 to 3 at depth 2 = false}}
  }
  return
}

// -----

func.func @modular(%a: memref<8xf32>) {
  affine.for %i = 0 to 32 {
    %v = affine.load %a[%i mod 8] : memref<8xf32>
    // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 1 = [5, 31]}}
    // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
    affine.store %v, %a[(%i + 3) mod 8] : memref<8xf32>
    // expected-remark@above {{dependence from 1 to 0 at depth 1 = [3, 31]}}
    // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 1 = [8, 31]}}
    // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
  }
  return
}

// -----

func.func @symbolic(%a: memref<?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %v = affine.load %a[%i + symbol(%n)] : memref<?xf32>
    // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
    affine.store %v, %a[%i] : memref<?xf32>
    // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
  }
  return
}

// -----

func.func @triangular(%a: memref<32x32xf32>) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %v = affine.load %a[%j, %i] : memref<32x32xf32>
      // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 3 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 3 = false}}
      affine.store %v, %a[%i, %j] : memref<32x32xf32>
      // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
      // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 1 to 0 at depth 3 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 3 = false}}
    }
  }
  return
}

// -----

#upper_half = affine_set<(d0) : (d0 - 16 >= 0)>
func.func @guarded(%a: memref<32xf32>, %x: f32) {
  affine.for %i = 0 to 32 {
    affine.if #upper_half(%i) {
      affine.store %x, %a[%i - 16] : memref<32xf32>
      // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
    }
    %v = affine.load %a[%i] : memref<32xf32>
    // expected-remark@above {{dependence from 1 to 0 at depth 1 = [16, 16]}}
    // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
  }
  return
}

// -----

func.func @tiled_reduction(%a: memref<128xf32>, %s: memref<1xf32>) {
  affine.for %t = 0 to 128 step 32 {
    affine.for %i = affine_map<(d0) -> (d0)>(%t) to affine_map<(d0) -> (d0 + 32)>(%t) {
      %x = affine.load %a[%i] : memref<128xf32>
      // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 0 at depth 3 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 1 at depth 3 = false}}
      // expected-remark@above {{dependence from 0 to 2 at depth 1 = false}}
      // expected-remark@above {{dependence from 0 to 2 at depth 2 = false}}
      // expected-remark@above {{dependence from 0 to 2 at depth 3 = false}}
      %acc = affine.load %s[0] : memref<1xf32>
      // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
      // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 1 to 0 at depth 3 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
      // expected-remark@above {{dependence from 1 to 1 at depth 3 = false}}
      // expected-remark@above {{dependence from 1 to 2 at depth 1 = [32, 96][1, 127]}}
      // expected-remark@above {{dependence from 1 to 2 at depth 2 = [0, 0][1, 31]}}
      // expected-remark@above {{dependence from 1 to 2 at depth 3 = true}}
      %sum = arith.addf %acc, %x : f32
      affine.store %sum, %s[0] : memref<1xf32>
      // expected-remark@above {{dependence from 2 to 0 at depth 1 = false}}
      // expected-remark@above {{dependence from 2 to 0 at depth 2 = false}}
      // expected-remark@above {{dependence from 2 to 0 at depth 3 = false}}
      // expected-remark@above {{dependence from 2 to 1 at depth 1 = [32, 96][1, 127]}}
      // expected-remark@above {{dependence from 2 to 1 at depth 2 = [0, 0][1, 31]}}
      // expected-remark@above {{dependence from 2 to 1 at depth 3 = false}}
      // expected-remark@above {{dependence from 2 to 2 at depth 1 = [32, 96][1, 127]}}
      // expected-remark@above {{dependence from 2 to 2 at depth 2 = [0, 0][1, 31]}}
      // expected-remark@above {{dependence from 2 to 2 at depth 3 = false}}
    }
  }
  return
}
