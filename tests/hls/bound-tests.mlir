// Loop-bound tests held in registers (construct/control/bound_test.rs): a counter
// whose upper bound is a constant has one-bit registers beside it that
// hold whether it is below the bound and whether it will be after one
// more step, written with every write of the counter; the controller's
// issue, exit and latch logic reads them instead of the counter's
// compare. Here: a pipelined flattened nest, a triangular nest (the
// inner counter's lower bound is the outer counter plus one, compared as
// it is written), a loop of step 3 whose bound is no multiple of it; and
// loops whose bound is not a constant, compared as before: a nest whose
// inner bound is the outer counter, a loop to a loaded value and one to
// a scalar argument. Co-simulated bit for bit, pipelined and sequential,
// with the argument bound at 0 (no iteration), 5 and 8; lint clean and
// accepted by yosys.
// RUN: rm -rf %t.p %t.s
// RUN: silica hls %s --top tests -o %t.p --sim --sim-scalar arg2=5 | FileCheck %s
// RUN: silica hls %s --top tests -o %t.p --sim --sim-scalar arg2=0 --seed 2 | FileCheck %s --check-prefix=ZERO
// RUN: silica hls %s --top tests -o %t.s --sim --sim-scalar arg2=8 --seed 3 --no-pipeline | FileCheck %s --check-prefix=SEQ
// RUN: FileCheck %s --check-prefix=SV --implicit-check-not=iv6_below --implicit-check-not=iv7_below --implicit-check-not=iv8_below --implicit-check-not=iv6_next --implicit-check-not=iv7_next --implicit-check-not=iv8_next < %t.p/tests.sv
// RUN: FileCheck %s --check-prefix=SV --implicit-check-not=iv6_below --implicit-check-not=iv7_below --implicit-check-not=iv8_below --implicit-check-not=iv6_next --implicit-check-not=iv7_next --implicit-check-not=iv8_next < %t.s/tests.sv
// RUN: verilator --lint-only -Wall %t.p/tests.sv
// RUN: verilator --lint-only -Wall %t.s/tests.sv
// RUN: yosys -q -p "read_verilog -sv %t.p/tests.sv; synth_ice40 -dsp -top tests"

// CHECK: co-simulation (seed 1): 73 values match, latency 263 cycles
// ZERO: co-simulation (seed 2): 73 values match
// SEQ: co-simulation (seed 3): 73 values match

// The triangular inner counter (loop 3) tests its lower bound as written.
// SV: reg iv3_below;
// SV: reg iv3_next_below;
// SV: iv3_below <= {{.*}} < $signed(65'h8) : {{.*}} ? iv3_next_below : iv3_below;
func.func @tests(%a: memref<8x8xi32>, %b: memref<8xi32>, %n: index) -> i32 {
  %z = arith.constant 0 : i32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %v = affine.load %a[%i, %j] : memref<8x8xi32>
      %w = arith.addi %v, %v : i32
      affine.store %w, %a[%i, %j] : memref<8x8xi32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%i) to 8 {
      %v = affine.load %a[%i, %j] : memref<8x8xi32>
      %s = affine.load %b[%i] : memref<8xi32>
      %t = arith.addi %s, %v : i32
      affine.store %t, %b[%i] : memref<8xi32>
    }
  }
  affine.for %i = 1 to 8 step 3 {
    %v = affine.load %b[%i] : memref<8xi32>
    %w = arith.muli %v, %v : i32
    affine.store %w, %b[%i] : memref<8xi32>
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %v = affine.load %a[%j, %i] : memref<8x8xi32>
      %s = affine.load %b[%j] : memref<8xi32>
      %t = arith.subi %s, %v : i32
      affine.store %t, %b[%j] : memref<8xi32>
    }
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : i32
  %m0 = affine.load %b[0] : memref<8xi32>
  %m1 = arith.andi %m0, %c7 : i32
  %m = arith.index_cast %m1 : i32 to index
  scf.for %k = %c0 to %m step %c1 {
    %v = memref.load %b[%k] : memref<8xi32>
    %w = arith.addi %v, %c7 : i32
    memref.store %w, %b[%k] : memref<8xi32>
  }
  %r = affine.for %k = 0 to %n iter_args(%acc = %z) -> (i32) {
    %v = affine.load %b[%k] : memref<8xi32>
    %s = arith.addi %acc, %v : i32
    affine.yield %s : i32
  }
  return %r : i32
}
