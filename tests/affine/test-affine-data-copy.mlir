// test-affine-data-copy: the copy generation utilities on a function's
// single loop nest. memref-filter copies only the memref of the first
// load in the innermost loop, for the outermost loop's body;
// for-memref-region copies that load's region (at depth 0, bounded by
// the memref's shape) in around the whole nest; without either, every
// memref is copied for the outermost loop's body, with the capacity
// warning when the buffers exceed capacity-kib (read as bytes, as MLIR's
// test pass does). Functions with two top-level nests, or two innermost
// loops, are left alone. The output is mlir-opt-22's.
// RUN: diff <(silica opt --split-input-file --test-affine-data-copy="memref-filter" %s) <(mlir-opt-22 --split-input-file --test-affine-data-copy="memref-filter" %s)
// RUN: diff <(silica opt --split-input-file --test-affine-data-copy="for-memref-region" %s) <(mlir-opt-22 --split-input-file --test-affine-data-copy="for-memref-region" %s)
// RUN: diff <(silica opt --split-input-file --test-affine-data-copy="capacity-kib=100" %s 2>/dev/null) <(mlir-opt-22 --split-input-file --test-affine-data-copy="capacity-kib=100" %s 2>/dev/null)
// RUN: diff <(silica opt --split-input-file --test-affine-data-copy %s) <(mlir-opt-22 --split-input-file --test-affine-data-copy %s)
// RUN: silica opt --split-input-file --test-affine-data-copy="capacity-kib=100" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: not silica opt --test-affine-data-copy="capacity-kib=-3" %s 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: for the --capacity-kib option: '-3' value invalid for ulong argument!

// Tiles of a transposed add: A is read and written, B only read.
// WARN: :[[@LINE+2]]:3: warning: total size of all copy buffers' for this block exceeds fast memory capacity
func.func @tiled_transpose_add(%A: memref<48x40xf32>, %B: memref<40x48xf32>) {
  affine.for %it = 0 to 48 step 16 {
    affine.for %jt = 0 to 40 step 8 {
      affine.for %i = affine_map<(d0) -> (d0)>(%it) to affine_map<(d0) -> (d0 + 16)>(%it) {
        affine.for %j = affine_map<(d0) -> (d0)>(%jt) to affine_map<(d0) -> (d0 + 8)>(%jt) {
          %b = affine.load %B[%j, %i] : memref<40x48xf32>
          %a = affine.load %A[%i, %j] : memref<48x40xf32>
          %s = arith.addf %a, %b : f32
          affine.store %s, %A[%i, %j] : memref<48x40xf32>
        }
      }
    }
  }
  return
}

// -----

// A one-iteration outer loop: its induction variable stays a symbol of
// the regions (the buffer is made inside it, not hoisted out).
func.func @single_iteration_outer(%A: memref<1x6x10xi32>, %B: memref<1x6x10xi32>) {
  affine.for %o = 0 to 1 {
    affine.for %i = 0 to 6 {
      affine.for %j = 0 to 10 {
        %v = affine.load %B[%o, %i, %j] : memref<1x6x10xi32>
        %w = arith.addi %v, %v : i32
        affine.store %w, %A[%o, %i, %j] : memref<1x6x10xi32>
      }
    }
  }
  return
}

// -----

// A 1-d stencil tiled by a size that does not divide the trip count.
func.func @stencil_min_bound(%A: memref<100xf64>, %B: memref<100xf64>) {
  affine.for %t = 1 to 99 step 30 {
    affine.for %i = affine_map<(d0) -> (d0)>(%t) to min affine_map<(d0) -> (d0 + 30, 99)>(%t) {
      %l = affine.load %A[%i - 1] : memref<100xf64>
      %r = affine.load %A[%i + 1] : memref<100xf64>
      %s = arith.addf %l, %r : f64
      affine.store %s, %B[%i] : memref<100xf64>
    }
  }
  return
}

// -----

// Bounds over symbols: max lower and min upper bounds.
func.func @symbolic_window(%M: memref<64x90xi16>, %p: index, %q: index) {
  affine.for %i = 0 to 64 {
    affine.for %j = max affine_map<()[s0, s1] -> (s0 * 16, s1 * 9)>()[%p, %q] to min affine_map<()[s0, s1] -> (s0 * 16 + 16, s1 * 9 + 9)>()[%p, %q] {
      %v = affine.load %M[%i, %j] : memref<64x90xi16>
      %w = arith.muli %v, %v : i16
      affine.store %w, %M[%i, %j] : memref<64x90xi16>
    }
  }
  return
}

// -----

// Two top-level nests: left alone.
func.func @two_nests(%A: memref<8xf32>, %B: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %A[%i] : memref<8xf32>
    affine.store %v, %B[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %v = affine.load %B[%i] : memref<8xf32>
    affine.store %v, %A[%i] : memref<8xf32>
  }
  return
}

// -----

// No load in the innermost loop: only the plain mode copies; a buffer
// allocated in the loop is copied inside it.
func.func @store_only(%A: memref<5x7xindex>) {
  affine.for %i = 0 to 5 {
    %t = memref.alloc() : memref<3xindex>
    affine.store %i, %t[1] : memref<3xindex>
    affine.for %j = 0 to 7 {
      affine.store %j, %A[%i, %j] : memref<5x7xindex>
    }
    memref.dealloc %t : memref<3xindex>
  }
  return
}
