// Scalar promotion (front/promote.rs): an element a loop reads and
// writes at an address invariant in it is held in a register across the
// loop. gesummv: tmp[i] and y[i] accumulate over j through memory, a
// recurrence of load, add and store (II 2 on the j loop); promoted, the
// j loop runs at II 1, the stores of zero before it are its registers'
// first values and the loads after it read the registers, so flatten
// folds i/j into one pipeline of 256 iterations (latency 259 against
// 593 with II 2 and a fill per entry). apart: acc[0] is accumulated
// while acc[j + 1] is read, another element in every iteration (the
// affine dependence analysis' system is empty): promoted, II 1. overlap:
// acc[i] is accumulated while acc[j] is read, the same element where
// j = i: kept in memory (II 3, the load, product, addition and store). Co-simulated bit for bit; lint clean;
// accepted by yosys.
// RUN: rm -rf %t.g %t.a
// RUN: silica hls %s --top gesummv -o %t.g --sim | FileCheck %s --check-prefix=GESUMMV
// RUN: FileCheck %s --check-prefix=GREPORT < %t.g/report.txt
// RUN: verilator --lint-only -Wall %t.g/gesummv.sv
// RUN: yosys -q -p "read_verilog -sv %t.g/gesummv.sv; synth_ice40 -dsp -top gesummv"
// RUN: silica hls %s --top elements -o %t.a --sim | FileCheck %s --check-prefix=ALIAS
// RUN: FileCheck %s --check-prefix=AREPORT < %t.a/report.txt
// RUN: verilator --lint-only -Wall %t.a/elements.sv

// GESUMMV: co-simulation (seed 1): {{[0-9]+}} values match, latency 259 cycles
// GESUMMV: gesummv/i: trip 256 (flattened with gesummv/i/j), pipelined, II 1 (ResMII 1, RecMII 1), depth 3
// GREPORT: note: read-modify-writes of loop-invariant elements held in registers (scalar promotion): gesummv/i/j: 2 element(s){{$}}
func.func @gesummv(%alpha: i32 {hls.name = "alpha"},
    %beta: i32 {hls.name = "beta"},
    %A: memref<16x16xi32> {hls.name = "A"},
    %B: memref<16x16xi32> {hls.name = "B"},
    %tmp: memref<16xi32> {hls.name = "tmp", hls.ports = 2},
    %x: memref<16xi32> {hls.name = "x", hls.ports = 2},
    %y: memref<16xi32> {hls.name = "y", hls.ports = 2}) {
  %c0 = arith.constant 0 : i32
  affine.for %i = 0 to 16 {
    affine.store %c0, %tmp[%i] : memref<16xi32>
    affine.store %c0, %y[%i] : memref<16xi32>
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<16x16xi32>
      %xa = affine.load %x[%j] : memref<16xi32>
      %ax = arith.muli %a, %xa : i32
      %t = affine.load %tmp[%i] : memref<16xi32>
      %t2 = arith.addi %ax, %t : i32
      affine.store %t2, %tmp[%i] : memref<16xi32>
      %b = affine.load %B[%i, %j] : memref<16x16xi32>
      %xb = affine.load %x[%j] : memref<16xi32>
      %bx = arith.muli %b, %xb : i32
      %u = affine.load %y[%i] : memref<16xi32>
      %u2 = arith.addi %bx, %u : i32
      affine.store %u2, %y[%i] : memref<16xi32>
    } {hls.label = "j"}
    %t = affine.load %tmp[%i] : memref<16xi32>
    %at = arith.muli %alpha, %t : i32
    %u = affine.load %y[%i] : memref<16xi32>
    %bu = arith.muli %beta, %u : i32
    %s = arith.addi %at, %bu : i32
    affine.store %s, %y[%i] : memref<16xi32>
  } {hls.label = "i", hls.flatten}
  return
}

// ALIAS: co-simulation (seed 1): {{[0-9]+}} values match
// ALIAS: elements/apart: trip 15, pipelined, II 1 (ResMII 1, RecMII 1)
// ALIAS: elements/rows/overlap: trip 8, pipelined, II 3 (ResMII 2, RecMII 3)
// AREPORT: note: read-modify-writes of loop-invariant elements held in registers (scalar promotion): elements/apart: 1 element(s){{$}}
func.func @elements(%acc: memref<16xi32> {hls.name = "acc", hls.ports = 2},
                 %m: memref<8x8xi32> {hls.name = "M", hls.ports = 2},
                 %r: memref<8xi32> {hls.name = "R", hls.ports = 2}) {
  affine.for %j = 0 to 15 {
    %v = affine.load %acc[%j + 1] : memref<16xi32>
    %s = affine.load %acc[0] : memref<16xi32>
    %s2 = arith.addi %s, %v : i32
    affine.store %s2, %acc[0] : memref<16xi32>
  } {hls.label = "apart"}
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %v = affine.load %m[%i, %j] : memref<8x8xi32>
      %w = affine.load %r[%j] : memref<8xi32>
      %s = affine.load %r[%i] : memref<8xi32>
      %p = arith.muli %v, %w : i32
      %s2 = arith.addi %s, %p : i32
      affine.store %s2, %r[%i] : memref<8xi32>
    } {hls.label = "overlap"}
  } {hls.label = "rows"}
  return
}
