// affine-loop-fusion: producer-consumer fusion with private buffers,
// slices with shifted and tiled bounds, reductions fused into their
// consumers, sibling fusion of nests reading the same memref, and nests
// left alone where fusing is illegal or does not pay. The output is
// mlir-opt-22's.
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(func.func(affine-loop-fusion))' %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(func.func(affine-loop-fusion))' %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(func.func(affine-loop-fusion{maximal}))' %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(func.func(affine-loop-fusion{maximal}))' %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(func.func(affine-loop-fusion{mode=producer}))' %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(func.func(affine-loop-fusion{mode=producer}))' %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(func.func(affine-loop-fusion{mode=sibling}))' %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(func.func(affine-loop-fusion{mode=sibling}))' %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(func.func(affine-loop-fusion{compute-tolerance=0.0}))' %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(func.func(affine-loop-fusion{compute-tolerance=0.0}))' %s)

// A pointwise producer into a pointwise consumer: one element of buffer.
func.func @pointwise(%in: memref<32xf32>, %out: memref<32xf32>) {
  %tmp = memref.alloc() : memref<32xf32>
  %c = arith.constant 2.0 : f32
  affine.for %i = 0 to 32 {
    %v = affine.load %in[%i] : memref<32xf32>
    %w = arith.mulf %v, %c : f32
    affine.store %w, %tmp[%i] : memref<32xf32>
  }
  affine.for %i = 0 to 32 {
    %v = affine.load %tmp[%i] : memref<32xf32>
    %w = arith.addf %v, %c : f32
    affine.store %w, %out[%i] : memref<32xf32>
  }
  return
}

// -----

// A 2-D producer read at shifted subscripts: the slice covers a 2x2
// window of the producer per consumer iteration.
func.func @window(%in: memref<20x20xf32>, %out: memref<19x19xf32>) {
  %tmp = memref.alloc() : memref<20x20xf32>
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 20 {
      %v = affine.load %in[%i, %j] : memref<20x20xf32>
      %w = arith.negf %v : f32
      affine.store %w, %tmp[%i, %j] : memref<20x20xf32>
    }
  }
  affine.for %i = 0 to 19 {
    affine.for %j = 0 to 19 {
      %a = affine.load %tmp[%i, %j] : memref<20x20xf32>
      %b = affine.load %tmp[%i + 1, %j + 1] : memref<20x20xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %out[%i, %j] : memref<19x19xf32>
    }
  }
  return
}

// -----

// A row reduction (with its initialization) fused into the loop that
// scales the sums.
func.func @row_sums(%m: memref<8x24xf32>, %out: memref<8xf32>) {
  %acc = memref.alloc() : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  affine.for %i = 0 to 8 {
    affine.store %zero, %acc[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 24 {
      %a = affine.load %acc[%i] : memref<8xf32>
      %x = affine.load %m[%i, %j] : memref<8x24xf32>
      %s = arith.addf %a, %x : f32
      affine.store %s, %acc[%i] : memref<8xf32>
    }
  }
  affine.for %i = 0 to 8 {
    %a = affine.load %acc[%i] : memref<8xf32>
    %r = arith.mulf %a, %half : f32
    affine.store %r, %out[%i] : memref<8xf32>
  }
  return
}

// -----

// A chain of three nests: both producers end up in the last one.
func.func @chain(%in: memref<16x16xf32>, %out: memref<16x16xf32>) {
  %a = memref.alloc() : memref<16x16xf32>
  %b = memref.alloc() : memref<16x16xf32>
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %v = affine.load %in[%i, %j] : memref<16x16xf32>
      affine.store %v, %a[%j, %i] : memref<16x16xf32>
    }
  }
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %v = affine.load %a[%i, %j] : memref<16x16xf32>
      %w = arith.mulf %v, %v : f32
      affine.store %w, %b[%i, %j] : memref<16x16xf32>
    }
  }
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %v = affine.load %b[%i, %j] : memref<16x16xf32>
      affine.store %v, %out[%i, %j] : memref<16x16xf32>
    }
  }
  return
}

// -----

// Two consumers of one producer: the producer stays for the second one
// in greedy mode's first round.
func.func @two_consumers(%in: memref<10xf32>, %x: memref<10xf32>, %y: memref<10xf32>) {
  %t = memref.alloc() : memref<10xf32>
  affine.for %i = 0 to 10 {
    %v = affine.load %in[%i] : memref<10xf32>
    affine.store %v, %t[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    %v = affine.load %t[%i] : memref<10xf32>
    affine.store %v, %x[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    %v = affine.load %t[%i] : memref<10xf32>
    %w = arith.addf %v, %v : f32
    affine.store %w, %y[%i] : memref<10xf32>
  }
  return
}

// -----

// Siblings: two nests reading the same input and writing different
// outputs become one.
func.func @siblings(%in: memref<12x12xf32>, %x: memref<12x12xf32>, %y: memref<12x12xf32>) {
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 12 {
      %v = affine.load %in[%i, %j] : memref<12x12xf32>
      affine.store %v, %x[%i, %j] : memref<12x12xf32>
    }
  }
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 12 {
      %v = affine.load %in[%i, %j] : memref<12x12xf32>
      %w = arith.negf %v : f32
      affine.store %w, %y[%i, %j] : memref<12x12xf32>
    }
  }
  return
}

// -----

// The consumer reads the producer's output backwards: no dependence
// carried at depth 1 is violated by a slice, which then runs one
// iteration each.
func.func @reversed(%in: memref<10xf32>, %out: memref<10xf32>) {
  %t = memref.alloc() : memref<10xf32>
  affine.for %i = 0 to 10 {
    %v = affine.load %in[%i] : memref<10xf32>
    affine.store %v, %t[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    %v = affine.load %t[9 - %i] : memref<10xf32>
    affine.store %v, %out[%i] : memref<10xf32>
  }
  return
}

// -----

// The producer's output escapes (a function argument) and is read after
// the consumer: the producer stays, the consumer gets no private copy.
func.func @escaping(%t: memref<10xf32>, %out: memref<10xf32>) -> f32 {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 10 {
    affine.store %c, %t[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    %v = affine.load %t[%i] : memref<10xf32>
    affine.store %v, %out[%i] : memref<10xf32>
  }
  %r = affine.load %t[3] : memref<10xf32>
  return %r : f32
}

// -----

// A consumer whose inner loop carries a dependence on the fused memref
// only allows fusion above it.
func.func @carried(%in: memref<10xf32>, %out: memref<10x10xf32>) {
  %t = memref.alloc() : memref<10xf32>
  affine.for %i = 0 to 10 {
    %v = affine.load %in[%i] : memref<10xf32>
    affine.store %v, %t[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      %v = affine.load %t[%i] : memref<10xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %t[%i] : memref<10xf32>
      affine.store %w, %out[%i, %j] : memref<10x10xf32>
    }
  }
  return
}

// -----

// A buffer written through a row-major linearized subscript and read
// back in 2-D: each consumer iteration needs exactly one producer
// iteration.
func.func @linearized(%in: memref<6x5xf32>, %out: memref<6x5xf32>) {
  %flat = memref.alloc() : memref<30xf32>
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 5 {
      %v = affine.load %in[%i, %j] : memref<6x5xf32>
      affine.store %v, %flat[%i * 5 + %j] : memref<30xf32>
    }
  }
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 5 {
      %v = affine.load %flat[%i * 5 + %j] : memref<30xf32>
      affine.store %v, %out[%i, %j] : memref<6x5xf32>
    }
  }
  return
}

// -----

// Nests inside an affine.for body fuse as top-level ones; the private
// buffer's region is taken at the fusion depth counted from the consumer
// nest, as MLIR does (the whole row under the surrounding loop).
func.func @inside_affine_for(%A: memref<8x12xf32>, %O: memref<8x12xf32>) {
  affine.for %t = 0 to 8 {
    %b = memref.alloc() : memref<12xf32>
    affine.for %j = 0 to 12 {
      %a = affine.load %A[%t, %j] : memref<8x12xf32>
      %m = arith.mulf %a, %a : f32
      affine.store %m, %b[%j] : memref<12xf32>
    }
    affine.for %j = 0 to 12 {
      %v = affine.load %b[%j] : memref<12xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %O[%t, %j] : memref<8x12xf32>
    }
    memref.dealloc %b : memref<12xf32>
  }
  return
}

// -----

// Siblings reading a memref a cast or a view of the block defines fuse
// like those reading a function argument.
func.func @siblings_of_a_cast(%arg: memref<*xf32>, %s: memref<24xf32>, %o1: memref<12xf32>, %o2: memref<12xf32>) {
  %m = memref.cast %arg : memref<*xf32> to memref<12xf32>
  %v = memref.subview %s[4] [12] [1] : memref<24xf32> to memref<12xf32, strided<[1], offset: 4>>
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 12 {
    %a = affine.load %m[%i] : memref<12xf32>
    %b = affine.load %v[%i] : memref<12xf32, strided<[1], offset: 4>>
    %c = arith.addf %a, %b : f32
    affine.store %c, %o1[%i] : memref<12xf32>
  }
  affine.for %i = 0 to 12 {
    %a = affine.load %m[%i] : memref<12xf32>
    %d = arith.addf %a, %one : f32
    affine.store %d, %o2[%i] : memref<12xf32>
  }
  affine.for %i = 0 to 12 {
    %b = affine.load %v[%i] : memref<12xf32, strided<[1], offset: 4>>
    %d = arith.mulf %b, %b : f32
    affine.store %d, %o1[%i] : memref<12xf32>
  }
  return
}

// -----

// Two stores of the producer write two columns of the buffer: no private
// buffer (sized from one store's region it would miss the other's
// column); the nests fuse over the whole buffer.
func.func @two_columns(%A: memref<8xf32>, %out: memref<8xf32>) {
  %t = memref.alloc() : memref<8x2xf32>
  %c = arith.constant 2.0 : f32
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<8xf32>
    affine.store %a, %t[%i, 0] : memref<8x2xf32>
    %b = arith.mulf %a, %c : f32
    affine.store %b, %t[%i, 1] : memref<8x2xf32>
  }
  affine.for %i = 0 to 8 {
    %x = affine.load %t[%i, 0] : memref<8x2xf32>
    %y = affine.load %t[%i, 1] : memref<8x2xf32>
    %z = arith.addf %x, %y : f32
    affine.store %z, %out[%i] : memref<8xf32>
  }
  return
}
