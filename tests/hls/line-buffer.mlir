// Line buffers for stencils: the nest reads the array once, in order,
// the rows above the newest element from an on-chip line buffer and the
// window from registers; the body runs where the window is whole.
// RUN: rm -rf %t.c %t.f %t.j %t.e %t.k %t.b %t.n
// RUN: silica hls %s --top conv3 -o %t.c --sim | FileCheck %s --check-prefix=CONV3
// RUN: silica hls %s --top conv5 -o %t.f --sim | FileCheck %s --check-prefix=CONV5
// RUN: silica hls %s --top jacobi -o %t.j --sim | FileCheck %s --check-prefix=JACOBI
// RUN: silica hls %s --top edges -o %t.e --sim | FileCheck %s --check-prefix=EDGES
// RUN: silica hls %s --top kept -o %t.k --sim | FileCheck %s --check-prefix=KEPT
// RUN: silica hls %s --top copied -o %t.b --sim | FileCheck %s --check-prefix=COPIED
// RUN: silica hls %s --top inplace -o %t.n --sim | FileCheck %s --check-prefix=INPLACE

// A 3x3 convolution pipelined on j (the window's loops unrolled): one
// load of I a cycle instead of three, in one flattened pipeline.
// CONV3: co-simulation (seed 1): 461 values match, latency 269 cycles
// CONV3: conv3/0: trip 256 (flattened with conv3/0/0), pipelined, II 1
// CONV3: note: line buffers for stencils: conv3/0: 3 rows x 3 columns of I, read once in order: 2 rows of 16 in I_lines, the window in 9 registers
func.func @conv3(%I: memref<16x16xi16> {hls.name = "I"}, %W: memref<3x3xi16> {hls.name = "W"},
                 %O: memref<14x14xi16> {hls.name = "O"}) {
  %zero = arith.constant 0 : i16
  affine.for %i = 0 to 14 {
    affine.for %j = 0 to 14 {
      %sum = affine.for %p = 0 to 3 iter_args(%a = %zero) -> i16 {
        %row = affine.for %q = 0 to 3 iter_args(%b = %a) -> i16 {
          %x = affine.load %I[%i + %p, %j + %q] : memref<16x16xi16>
          %w = affine.load %W[%p, %q] : memref<3x3xi16>
          %m = arith.muli %x, %w : i16
          %s = arith.addi %b, %m : i16
          affine.yield %s : i16
        }
        affine.yield %row : i16
      }
      affine.store %sum, %O[%i, %j] : memref<14x14xi16>
    } {hls.pipeline = true}
  } {hls.flatten}
  return
}

// A 5x5 window: four rows in the line buffer (a bank each), 25
// registers; the roofline counts the kernel's products, not those of
// the iterations before the window is whole.
// CONV5: co-simulation (seed 1): 425 values match, latency 315 cycles
// CONV5: roofline: compute 129 cycles (3600 mul i16 on 28 unit(s))
// CONV5: conv5/0/0: trip 16, pipelined, II 1
// CONV5: note: line buffers for stencils: conv5/0: 5 rows x 5 columns of I, read once in order: 4 rows of 16 in I_lines, the window in 25 registers
func.func @conv5(%I: memref<16x16xi16> {hls.name = "I"}, %W: memref<5x5xi16> {hls.name = "W"},
                 %O: memref<12x12xi16> {hls.name = "O"}) {
  %zero = arith.constant 0 : i16
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 12 {
      %sum = affine.for %p = 0 to 5 iter_args(%a = %zero) -> i16 {
        %row = affine.for %q = 0 to 5 iter_args(%b = %a) -> i16 {
          %x = affine.load %I[%i + %p, %j + %q] : memref<16x16xi16>
          %w = affine.load %W[%p, %q] : memref<5x5xi16>
          %m = arith.muli %x, %w : i16
          %s = arith.addi %b, %m : i16
          affine.yield %s : i16
        }
        affine.yield %row : i16
      }
      affine.store %sum, %O[%i, %j] : memref<12x12xi16>
    } {hls.pipeline = true}
  }
  return
}

// jacobi-2d's five points, offsets -1..1 from a lower bound of 1, in a
// time loop: each sweep reads A once; the innermost loop pipelines
// without directives.
// JACOBI: co-simulation (seed 1): {{[0-9]+}} values match
// JACOBI: II 1
// JACOBI: note: line buffers for stencils: jacobi/0/0: 3 rows x 3 columns of A, read once in order: 2 rows of 12 in A_lines, the window in 9 registers
func.func @jacobi(%A: memref<12x12xi32> {hls.name = "A"}, %B: memref<12x12xi32> {hls.name = "B"}) {
  affine.for %t = 0 to 2 {
    affine.for %i = 1 to 11 {
      affine.for %j = 1 to 11 {
        %c = affine.load %A[%i, %j] : memref<12x12xi32>
        %l = affine.load %A[%i, %j - 1] : memref<12x12xi32>
        %r = affine.load %A[%i, %j + 1] : memref<12x12xi32>
        %u = affine.load %A[%i - 1, %j] : memref<12x12xi32>
        %d = affine.load %A[%i + 1, %j] : memref<12x12xi32>
        %s0 = arith.addi %c, %l : i32
        %s1 = arith.addi %s0, %r : i32
        %s2 = arith.addi %s1, %u : i32
        %s3 = arith.addi %s2, %d : i32
        affine.store %s3, %B[%i, %j] : memref<12x12xi32>
      }
    }
    affine.for %i = 1 to 11 {
      affine.for %j = 1 to 11 {
        %c = affine.load %B[%i, %j] : memref<12x12xi32>
        %u = affine.load %B[%i - 1, %j] : memref<12x12xi32>
        %d = affine.load %B[%i + 1, %j] : memref<12x12xi32>
        %s0 = arith.subi %u, %d : i32
        %s1 = arith.addi %s0, %c : i32
        affine.store %s1, %A[%i, %j] : memref<12x12xi32>
      }
    }
  }
  return
}

// Two rows of one column (fdtd-2d's hz[i][j] - hz[i-1][j]) beside other
// arrays: a line buffer of one row, no window columns to carry; E and F
// are accessed where the body runs.
// EDGES: co-simulation (seed 1): {{[0-9]+}} values match
// EDGES: note: line buffers for stencils: edges/0: 2 rows x 1 columns of H, read once in order: 1 rows of 10 in H_lines, the window in 2 registers
func.func @edges(%H: memref<10x10xi32> {hls.name = "H"}, %E: memref<10x10xi32> {hls.name = "E"},
                 %F: memref<10x10xi32> {hls.name = "F"}) {
  affine.for %i = 1 to 10 {
    affine.for %j = 0 to 10 {
      %e = affine.load %E[%i, %j] : memref<10x10xi32>
      %a = affine.load %H[%i, %j] : memref<10x10xi32>
      %b = affine.load %H[%i - 1, %j] : memref<10x10xi32>
      %d = arith.subi %a, %b : i32
      %n = arith.subi %e, %d : i32
      affine.store %n, %F[%i, %j] : memref<10x10xi32>
    }
  }
  return
}

// The same stencil on an array read and written in place (fdtd-2d's
// ey[i][j] -= hz[i][j] - hz[i-1][j]): E's load and store an iteration
// hold the II at 2 on its port whatever H costs, so H's nest stays as
// it is (reading more elements would only add iterations).
// KEPT: co-simulation (seed 1): {{[0-9]+}} values match
// KEPT-NOT: line buffers
func.func @kept(%H: memref<10x10xi32> {hls.name = "H"}, %E: memref<10x10xi32> {hls.name = "E"}) {
  affine.for %i = 1 to 10 {
    affine.for %j = 0 to 10 {
      %e = affine.load %E[%i, %j] : memref<10x10xi32>
      %a = affine.load %H[%i, %j] : memref<10x10xi32>
      %b = affine.load %H[%i - 1, %j] : memref<10x10xi32>
      %d = arith.subi %a, %b : i32
      %n = arith.subi %e, %d : i32
      affine.store %n, %E[%i, %j] : memref<10x10xi32>
    }
  }
  return
}

// A stencil over an array the directives buffer on chip: the nest reads
// the external memory once instead, and the copy goes.
// COPIED: co-simulation (seed 1): {{[0-9]+}} values match
// COPIED-NOT: copy_in
// COPIED: note: line buffers for stencils: copied/0: 3 rows x 1 columns of X, read once in order: 2 rows of 8 in X_lines, the window in 3 registers, from the external memory (its on-chip copy is not made)
func.func @copied(%X: memref<12x8xi32> {hls.name = "X", hls.buffer = true},
                  %Y: memref<10x8xi32> {hls.name = "Y"}) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 8 {
      %a = affine.load %X[%i, %j] : memref<12x8xi32>
      %b = affine.load %X[%i + 1, %j] : memref<12x8xi32>
      %c = affine.load %X[%i + 2, %j] : memref<12x8xi32>
      %s = arith.addi %a, %b : i32
      %t = arith.muli %s, %c : i32
      affine.store %t, %Y[%i, %j] : memref<10x8xi32>
    }
  }
  return
}

// An array the nest also writes (seidel-2d) keeps its accesses.
// INPLACE: co-simulation (seed 1): {{[0-9]+}} values match
// INPLACE-NOT: line buffers
func.func @inplace(%A: memref<10x10xi32> {hls.name = "A"}) {
  affine.for %i = 1 to 9 {
    affine.for %j = 1 to 9 {
      %u = affine.load %A[%i - 1, %j] : memref<10x10xi32>
      %d = affine.load %A[%i + 1, %j] : memref<10x10xi32>
      %s = arith.addi %u, %d : i32
      affine.store %s, %A[%i, %j] : memref<10x10xi32>
    }
  }
  return
}
