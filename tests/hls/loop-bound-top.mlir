// scf.for with bounds known only at run time near the top of their
// types: an index loop to an i32 argument of 2^31 - 1 (step 5: the
// counter steps to 2^31 + 3), an unsigned i32 loop to 2^32 - 16 (its
// counter past 2^32 - 16) and an i16 loop to 32760. The counter is sized
// one step past the bound's range (analysis/ranges.rs: index width 34
// here) and the exit test compares one bit wider (construct/control/mod.rs
// next_below), so neither wraps: co-simulated bit for bit against
// software at those bounds (where the software's counters do not wrap
// either), pipelined and sequential; lint clean and accepted by yosys.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top near -o %t.d --sim --sim-scalar arg1=2147483647 --sim-scalar arg2=4294967280 --sim-scalar arg3=32760 | FileCheck %s
// RUN: silica hls %s --top near -o %t.d --sim --sim-scalar arg1=2147483647 --sim-scalar arg2=4294967280 --sim-scalar arg3=32760 --no-pipeline | FileCheck %s
// RUN: verilator --lint-only -Wall %t.d/near.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/near.sv; synth_ice40 -dsp -top near"

// CHECK: co-simulation (seed 1): 17 values match
// CHECK: index width: 34 bits

func.func @near(%a: memref<16xi32>, %n: i32, %u: i32, %m: i16) -> i32 {
  %c12 = arith.constant 12 : index
  %c5 = arith.constant 5 : index
  %c15 = arith.constant 15 : index
  %z = arith.constant 0 : i32
  %ni = arith.index_cast %n : i32 to index
  %lo = arith.subi %ni, %c12 : index
  %r = scf.for %i = %lo to %ni step %c5 iter_args(%acc = %z) -> (i32) {
    %k = arith.andi %i, %c15 : index
    %v = memref.load %a[%k] : memref<16xi32>
    %i32 = arith.index_cast %i : index to i32
    %w = arith.addi %v, %i32 : i32
    memref.store %w, %a[%k] : memref<16xi32>
    %s = arith.addi %acc, %w : i32
    scf.yield %s : i32
  }
  %u12 = arith.constant 12 : i32
  %u3 = arith.constant 3 : i32
  %u7 = arith.constant 7 : i32
  %ulo = arith.subi %u, %u12 : i32
  %t = scf.for unsigned %j = %ulo to %u step %u3 iter_args(%acc = %r) -> (i32) : i32 {
    %k = arith.andi %j, %u7 : i32
    %ki = arith.index_castui %k : i32 to index
    %v = memref.load %a[%ki] : memref<16xi32>
    %w = arith.xori %v, %j : i32
    memref.store %w, %a[%ki] : memref<16xi32>
    %s = arith.addi %acc, %w : i32
    scf.yield %s : i32
  }
  %d7 = arith.constant 7 : i16
  %d3 = arith.constant 3 : i16
  %mlo = arith.subi %m, %d7 : i16
  %e = scf.for %j = %mlo to %m step %d3 iter_args(%acc = %t) -> (i32) : i16 {
    %j32 = arith.extsi %j : i16 to i32
    %s = arith.addi %acc, %j32 : i32
    scf.yield %s : i32
  }
  return %e : i32
}
