// Enum values in Verilog are their fields' indices (`!hw.enum<A, B, C>`
// is two bits), compared with `==`; Icarus runs the design exactly as
// `silica sim` does, Verilator lints it clean, yosys synthesises it.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica translate --to-verilog %s -o %t.d/e.sv
// RUN: FileCheck %s < %t.d/e.sv
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.d/e.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/e.sv; synth_ice40 -dsp -top fsm"
// RUN: silica sim %s --top fsm --random 200 --seed 7 --testbench %t.d/tb.sv -o %t.d/silica.trace
// RUN: iverilog -g2012 -o %t.d/e.vvp %t.d/e.sv %t.d/tb.sv
// RUN: vvp -N %t.d/e.vvp > %t.d/icarus.trace
// RUN: diff %t.d/silica.trace %t.d/icarus.trace

// CHECK: output [1:0] state
// CHECK: wire _GEN = s == 2'h1;
// CHECK: s <= _GEN & stop ? 2'h2 : s == 2'h0 & go ? 2'h1 : s;
!S = !hw.enum<Idle, Run, Done>
hw.module @fsm(in %clk: !seq.clock, in %go: i1, in %stop: i1, out state: !S, out busy: i1) {
  %idle = hw.enum.constant Idle : !S
  %run = hw.enum.constant Run : !S
  %done = hw.enum.constant Done : !S
  %is_idle = hw.enum.cmp %s, %idle : !S, !S
  %is_run = hw.enum.cmp %s, %run : !S, !S
  %start = comb.and %is_idle, %go : i1
  %finish = comb.and %is_run, %stop : i1
  %n1 = comb.mux %start, %run, %s : !S
  %n2 = comb.mux %finish, %done, %n1 : !S
  %s = seq.compreg %n2, %clk : !S
  hw.output %s, %is_run : !S, i1
}
