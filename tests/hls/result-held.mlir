// A scalar result carried by the loop that ends the kernel stays in that
// loop's carried register from `done` until the next start: no result
// register latches it (a result computed after the loop keeps one). A
// port with one access drives that access's address without a
// multiplexer (the address is unread while `ce` is low). Co-simulated,
// lint clean; `dyn` at a seed whose loop runs no iteration (4 cycles)
// and at one whose loop runs.
// RUN: rm -rf %t.d %t.s %t.n0 %t.n1
// RUN: silica hls %s --top dot -o %t.d --sim --seed 5 | FileCheck %s --check-prefix=DOT-SIM
// RUN: FileCheck %s --check-prefix=DOT < %t.d/dot.sv
// RUN: verilator --lint-only -Wall %t.d/dot.sv
// RUN: silica hls %s --top sums -o %t.s --sim --seed 5 | FileCheck %s --check-prefix=SUMS-SIM
// RUN: FileCheck %s --check-prefix=SUMS < %t.s/sums.sv
// RUN: silica hls %s --top dyn -o %t.n0 --sim --seed 6 | FileCheck %s --check-prefix=DYN0
// RUN: silica hls %s --top dyn -o %t.n1 --sim --seed 1 | FileCheck %s --check-prefix=DYN1
// RUN: FileCheck %s --check-prefix=DYN < %t.n0/dyn.sv
// RUN: verilator --lint-only -Wall %t.n0/dyn.sv

// DOT-SIM: co-simulation (seed 5): 33 values match, latency 18 cycles
// DOT-NOT: result0_r
// DOT: assign result0 = carried0_0;
// DOT-NEXT: assign a_address0 = iv0[3:0];
// DOT: assign b_address0 = iv0[3:0];

// SUMS-SIM: co-simulation (seed 5): 10 values match
// SUMS: assign result0 = result0_r;
// SUMS-NEXT: assign result1 = result1_r;

// DYN0: co-simulation (seed 6): 9 values match, latency 4 cycles
// DYN1: co-simulation (seed 1): 9 values match, latency 10 cycles
// DYN-NOT: result0_r
// DYN: assign result0 = carried0_0;

func.func @dot(%a: memref<16xi32> {hls.name = "a"}, %b: memref<16xi32> {hls.name = "b"}) -> i32 {
  %z = arith.constant 0 : i32
  %r = affine.for %i = 0 to 16 iter_args(%acc = %z) -> (i32) {
    %x = affine.load %a[%i] : memref<16xi32>
    %y = affine.load %b[%i] : memref<16xi32>
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    affine.yield %s : i32
  }
  return %r : i32
}

func.func @sums(%a: memref<8xi32> {hls.name = "a"}) -> (i32, i32) {
  %z = arith.constant 0 : i32
  %r:2 = affine.for %i = 0 to 8 iter_args(%s = %z, %t = %z) -> (i32, i32) {
    %x = affine.load %a[%i] : memref<8xi32>
    %s2 = arith.addi %s, %x : i32
    %t2 = arith.xori %t, %x : i32
    affine.yield %s2, %t2 : i32, i32
  }
  %u = arith.addi %r#1, %r#0 : i32
  return %r#0, %u : i32, i32
}

func.func @dyn(%n: index, %init: i32, %a: memref<8xi32> {hls.name = "a"}) -> i32 {
  %r = affine.for %i = 0 to min affine_map<()[s0] -> (s0, 8)>()[%n] iter_args(%acc = %init) -> (i32) {
    %x = affine.load %a[%i] : memref<8xi32>
    %s = arith.addi %acc, %x : i32
    affine.yield %s : i32
  }
  return %r : i32
}
