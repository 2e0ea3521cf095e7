// Loops inside if-converted branches and scf.for over integer types.
// A loop in a branch gets one more upper bound that makes it run no
// iteration when the branch is not taken; an scf.while in a branch runs
// its `before` region once, predicated, and goes on only when the branch
// is taken. Each kernel is co-simulated bit for bit on seeds that take
// and skip the branches; lint clean and accepted by yosys.
// RUN: rm -rf %t.g %t.w %t.i
// RUN: silica hls %s --top guarded -o %t.g --sim --seed 1 | FileCheck %s --check-prefix=G
// RUN: silica hls %s --top guarded -o %t.g --sim --seed 8 | FileCheck %s --check-prefix=GT
// RUN: silica hls %s --top guarded -o %t.g --sim --seed 8 --no-pipeline | FileCheck %s --check-prefix=G
// RUN: verilator --lint-only -Wall %t.g/guarded.sv
// RUN: yosys -q -p "read_verilog -sv %t.g/guarded.sv; synth_ice40 -dsp -top guarded"
// RUN: silica hls %s --top whileif -o %t.w --sim --seed 1 | FileCheck %s --check-prefix=WS
// RUN: silica hls %s --top whileif -o %t.w --sim --seed 3 | FileCheck %s --check-prefix=WT
// RUN: verilator --lint-only -Wall %t.w/whileif.sv
// RUN: silica hls %s --top intloops -o %t.i --sim --seed 1 | FileCheck %s --check-prefix=I
// RUN: silica hls %s --top intloops -o %t.i --sim --seed 2 | FileCheck %s --check-prefix=I
// RUN: verilator --lint-only -Wall %t.i/intloops.sv
// RUN: yosys -q -p "read_verilog -sv %t.i/intloops.sv; synth_ice40 -dsp -top intloops"

// Seed 1 skips the branches (p = 0), seed 8 takes them: the taken nest's
// 32 iterations show in the latency.
// G: co-simulation (seed {{[0-9]+}}): 49 values match
// GT: co-simulation (seed 8): 49 values match, latency 84 cycles
// WS: co-simulation (seed 1): 17 values match, latency 5 cycles
// WT: co-simulation (seed 3): 17 values match, latency 17 cycles
// I: co-simulation (seed {{[0-9]+}}): 33 values match

// A nest with a carried sum in the taken branch, another loop in the
// other one, and an affine.if whose else branch holds a loop over the
// first loop's bounds.
func.func @guarded(%a: memref<4x8xi32>, %b: memref<16xi32>, %p: i1, %n: i32) -> i32 {
  %z = arith.constant 0 : i32
  %r = scf.if %p -> (i32) {
    %s = affine.for %i = 0 to 4 iter_args(%acc = %z) -> (i32) {
      %t = affine.for %j = 0 to 8 iter_args(%row = %acc) -> (i32) {
        %x = affine.load %a[%i, %j] : memref<4x8xi32>
        %y = arith.addi %row, %x : i32
        affine.yield %y : i32
      }
      affine.yield %t : i32
    }
    scf.yield %s : i32
  } else {
    affine.for %k = 0 to 16 {
      %x = affine.load %b[%k] : memref<16xi32>
      %y = arith.muli %x, %n : i32
      affine.store %y, %b[%k] : memref<16xi32>
    }
    scf.yield %n : i32
  }
  %c = arith.index_castui %p : i1 to index
  affine.for %i = 0 to 4 {
    affine.if affine_set<(d0)[s0] : (d0 - s0 * 2 >= 0)>(%i)[%c] {
      %x = affine.load %a[%i, 0] : memref<4x8xi32>
      %y = arith.addi %x, %r : i32
      affine.store %y, %a[%i, 0] : memref<4x8xi32>
    } else {
      affine.for %j = 1 to 8 {
        %x = affine.load %a[%i, %j - 1] : memref<4x8xi32>
        %y = arith.xori %x, %n : i32
        affine.store %y, %a[%i, %j] : memref<4x8xi32>
      }
    }
  }
  return %r : i32
}

// An scf.while (data-dependent trip count) in one branch.
func.func @whileif(%v: memref<16xi32>, %c: i1, %n: i32) -> i32 {
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %mask = arith.constant 15 : i32
  %start = arith.andi %n, %mask : i32
  %r = scf.if %c -> (i32) {
    %w:2 = scf.while (%x = %start, %sum = %z) : (i32, i32) -> (i32, i32) {
      %x0 = arith.index_castui %x : i32 to index
      %e = memref.load %v[%x0] : memref<16xi32>
      %s = arith.addi %sum, %e : i32
      %more = arith.cmpi sgt, %x, %z : i32
      scf.condition(%more) %x, %s : i32, i32
    } do {
    ^bb0(%x: i32, %s: i32):
      %i = arith.index_castui %x : i32 to index
      memref.store %s, %v[%i] : memref<16xi32>
      %next = arith.subi %x, %one : i32
      scf.yield %next, %s : i32, i32
    }
    scf.yield %w#1 : i32
  } else {
    scf.yield %start : i32
  }
  return %r : i32
}

// scf.for over i32 (a negative lower bound, step 2, a bound computed
// from an argument) around one over i16, and one over i64 beside them.
func.func @intloops(%a: memref<16xi32>, %b: memref<16xi16>, %n: i32) -> i32 {
  %lo = arith.constant -2 : i32
  %two = arith.constant 2 : i32
  %cap = arith.constant 13 : i32
  %hi = arith.minsi %n, %cap : i32
  %z = arith.constant 0 : i32
  %r = scf.for %i = %lo to %hi step %two iter_args(%acc = %z) -> (i32) : i32 {
    %j = arith.addi %i, %two : i32
    %x = arith.index_cast %j : i32 to index
    %v = memref.load %a[%x] : memref<16xi32>
    %w = arith.addi %v, %i : i32
    memref.store %w, %a[%x] : memref<16xi32>
    %s = arith.addi %acc, %w : i32
    scf.yield %s : i32
  }
  %l0 = arith.constant 0 : i16
  %l1 = arith.constant 1 : i16
  %l16 = arith.constant 16 : i16
  scf.for %k = %l0 to %l16 step %l1 : i16 {
    %x = arith.index_cast %k : i16 to index
    %v = memref.load %b[%x] : memref<16xi16>
    %w = arith.muli %v, %k : i16
    memref.store %w, %b[%x] : memref<16xi16>
  }
  %q0 = arith.constant 3 : i64
  %q1 = arith.constant 1 : i64
  %q9 = arith.constant 9 : i64
  %t = scf.for %k = %q0 to %q9 step %q1 iter_args(%acc = %r) -> (i32) : i64 {
    %k32 = arith.trunci %k : i64 to i32
    %s = arith.addi %acc, %k32 : i32
    scf.yield %s : i32
  }
  return %t : i32
}
