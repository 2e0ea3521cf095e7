// Unroll and pipeline directives on scf.for loops with constant bounds:
// unroll by a factor dividing the trip count (a carried sum threaded
// through the copies, over index and over i16), full unrolling (the loop
// removed), pipelining a loop around an scf.for (unrolled fully so the
// outer loop is innermost), and a factor that does not divide the trip
// count (a warning; scf.for gets no cleanup loop); `scf.for unsigned`
// over i8 from 0 to 200, plain and unrolled by 4 (its bounds compared
// unsigned: 200 iterations, not none). Co-simulated bit for bit; lint
// clean; accepted by yosys.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top scf -o %t.d --sim > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=WARN < %t.err
// RUN: verilator --lint-only -Wall %t.d/scf.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/scf.sv; synth_ice40 -dsp -top scf"
// RUN: silica hls %s --top unsigned8 -o %t.u --sim | FileCheck %s --check-prefix=UNS
// RUN: verilator --lint-only -Wall %t.u/unsigned8.sv

// UNS: co-simulation (seed 1): 6 values match, latency
// UNS: unsigned8/plain: trip 200, pipelined
// UNS: unsigned8/four: trip 50, pipelined
// UNS: unsigned8/four: unroll 4 (attribute): honoured: body repeated 4 times
func.func @unsigned8(%a: memref<4xi32>) -> (i32, i32) {
  %l = arith.constant 0 : i8
  %u = arith.constant 200 : i8
  %s = arith.constant 1 : i8
  %z = arith.constant 0 : i32
  %r = scf.for unsigned %i = %l to %u step %s iter_args(%acc = %z) -> (i32) : i8 {
    %e = arith.extui %i : i8 to i32
    %y = arith.addi %acc, %e : i32
    scf.yield %y : i32
  } {hls.label = "plain"}
  %q = scf.for unsigned %i = %l to %u step %s iter_args(%acc = %z) -> (i32) : i8 {
    %e = arith.extui %i : i8 to i32
    %y = arith.xori %acc, %e : i32
    %w = arith.addi %y, %e : i32
    scf.yield %w : i32
  } {hls.label = "four", hls.unroll = 4 : i64}
  return %r, %q : i32, i32
}

// CHECK: co-simulation (seed 1): 64 values match, latency 100 cycles
// CHECK: scf/sum: trip 8, pipelined, II 2
// CHECK: scf/narrow: trip 4, pipelined
// CHECK: scf/rows: trip 4, pipelined
// CHECK: scf/odd: trip 15, pipelined
// CHECK: directives:
// CHECK-DAG: scf/sum: unroll 2 (attribute): honoured: body repeated 2 times
// CHECK-DAG: scf/narrow: unroll 4 (attribute): honoured: body repeated 4 times
// CHECK-DAG: scf/three: unroll full (attribute): honoured: body repeated 3 times, loop removed
// CHECK-DAG: scf/rows: pipeline = true (attribute): honoured: the 1 loop(s) inside unrolled fully (4 copies of the body)
// CHECK-DAG: scf/odd: unroll 2 (attribute): not honoured: the factor does not divide its trip count (15)
func.func @scf(%a: memref<16xi32>, %b: memref<16xi16>, %m: memref<4x4xi32>, %c: memref<15xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %z = arith.constant 0 : i32
  %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %z) -> (i32) {
    %x = memref.load %a[%i] : memref<16xi32>
    %y = arith.addi %acc, %x : i32
    scf.yield %y : i32
  } {hls.label = "sum", hls.unroll = 2 : i64}
  %h0 = arith.constant 0 : i16
  %h1 = arith.constant 1 : i16
  %h16 = arith.constant 16 : i16
  scf.for %k = %h0 to %h16 step %h1 : i16 {
    %x = arith.index_cast %k : i16 to index
    %v = memref.load %b[%x] : memref<16xi16>
    %w = arith.muli %v, %k : i16
    memref.store %w, %b[%x] : memref<16xi16>
  } {hls.label = "narrow", hls.unroll = 4 : i64}
  %t = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %s) -> (i32) {
    %x = memref.load %a[%i] : memref<16xi32>
    %y = arith.xori %acc, %x : i32
    scf.yield %y : i32
  } {hls.label = "three", hls.unroll = "full"}
  scf.for %i = %c0 to %c4 step %c1 {
    %row = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (i32) {
      %x = memref.load %m[%i, %j] : memref<4x4xi32>
      %y = arith.addi %acc, %x : i32
      scf.yield %y : i32
    }
    memref.store %row, %m[%i, %c0] : memref<4x4xi32>
  } {hls.label = "rows", hls.pipeline = true}
  // WARN: scf-unroll.mlir:[[# @LINE + 1]]:3: warning: unroll 2 on scf/odd is not honoured: the factor does not divide its trip count (15)
  scf.for %i = %c0 to %c15 step %c1 {
    %x = memref.load %c[%i] : memref<15xi32>
    %y = arith.addi %x, %t : i32
    memref.store %y, %c[%i] : memref<15xi32>
  } {hls.label = "odd", hls.unroll = 2 : i64}
  return %t : i32
}
