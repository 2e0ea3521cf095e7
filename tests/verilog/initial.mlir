// Registers with initial values from `seq.initial` regions: they power
// up at the computed value in `silica sim` and in the Verilog (checked by
// Verilator, yosys and Icarus against `silica sim`).
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica opt %s | FileCheck %s --check-prefix=IR
// RUN: silica translate --to-verilog %s -o %t.d/init.sv
// RUN: FileCheck %s < %t.d/init.sv
// RUN: verilator --lint-only -Wall %t.d/init.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/init.sv; synth_ice40 -dsp -top init"
// RUN: silica sim %s --top init --random 50 --seed 2 --testbench %t.d/tb.sv -o %t.d/silica.trace
// RUN: iverilog -g2012 -o %t.d/init.vvp %t.d/init.sv %t.d/tb.sv
// RUN: vvp -N %t.d/init.vvp > %t.d/icarus.trace
// RUN: diff %t.d/silica.trace %t.d/icarus.trace
// RUN: FileCheck %s --check-prefix=TRACE < %t.d/silica.trace

// IR: %0 = seq.initial() {
// IR-NEXT: %c5_i32 = hw.constant 5 : i32
// IR-NEXT: seq.yield %c5_i32 : i32
// IR-NEXT: } : () -> !seq.immutable<i32>
// IR-NEXT: %1:2 = seq.initial(%0) {
// IR-NEXT: ^bb0(%arg0: i32):
// IR: %r = seq.compreg %d, %clk initial %1#0 : i32
// IR: %2 = seq.from_immutable %1#1 : (!seq.immutable<i32>) -> i32

// CHECK: assign q = 32'h5;
// CHECK: initial r = 32'hA;
// CHECK: initial r2 = 32'h5;

// TRACE: cycle 0: o=0000000a p=00000005 q=00000005

hw.module @init(in %clk: !seq.clock, in %d: i32, in %rst: i1, out o: i32, out p: i32, out q: i32) {
  %init = seq.initial () {
    %c = hw.constant 5 : i32
    seq.yield %c : i32
  } : () -> !seq.immutable<i32>
  %add:2 = seq.initial (%init) {
    ^bb0(%arg0 : i32):
    %0 = comb.add %arg0, %arg0: i32
    seq.yield %0, %arg0 : i32, i32
  } : (!seq.immutable<i32>) -> (!seq.immutable<i32>, !seq.immutable<i32>)
  %r = seq.compreg %d, %clk initial %add#0 : i32
  %c1 = hw.constant 1 : i32
  %r2 = seq.compreg.ce %d, %clk, %rst reset %rst, %c1 initial %init : i32
  %f = seq.from_immutable %add#1 : (!seq.immutable<i32>) -> i32
  hw.output %r, %r2, %f : i32, i32, i32
}
