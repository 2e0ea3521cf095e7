// Modules whose widths are parameters keep them in the Verilog, as CIRCT
// writes them (`input [W - 1:0] a`); registers of such widths power up at
// `'0`. Verilator lints the output clean, Icarus simulates two instances
// of different widths exactly as `silica sim` (which elaborates them)
// does, and yosys synthesises it.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica translate --to-verilog %s -o %t.d/p.sv
// RUN: FileCheck %s < %t.d/p.sv
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module top %t.d/p.sv
// RUN: silica sim %s --top top --random 300 --seed 4 --testbench %t.d/tb.sv -o %t.d/silica.trace
// RUN: iverilog -g2012 -o %t.d/p.vvp %t.d/p.sv %t.d/tb.sv
// RUN: vvp -N %t.d/p.vvp > %t.d/icarus.trace
// RUN: diff %t.d/silica.trace %t.d/icarus.trace
// RUN: yosys -q -p "read_verilog -sv %t.d/p.sv; synth_ice40 -dsp -top top"

// CHECK-LABEL: module acc #(
// CHECK-NEXT: parameter [31:0] W = 32'h0
// CHECK: input  [W - 1:0] a,
// CHECK: output [W - 1:0] s,
// CHECK: reg [W - 1:0] r;
// CHECK: wire [W - 1:0] w = _GEN ? r + a : b;
// CHECK: pass #(
// CHECK-NEXT: .W(W)
// CHECK: initial r = '0;
// CHECK-LABEL: module top(
// CHECK: acc #(
// CHECK-NEXT: .W(32'h6)
!T = !hw.int<#hw.param.decl.ref<"W">>
hw.module @acc<W: i32>(in %clk: !seq.clock, in %rst: i1, in %en: i1, in %a: !T, in %b: !T, out s: !T, out gt: i1) {
  %zero = comb.xor %a, %a : !T
  %sum = comb.add %r, %a : !T
  %big = comb.icmp ugt %a, %b : !T
  %m = comb.mux %big, %sum, %b : !T
  %w = hw.wire %m : !T
  %r = seq.firreg %w clock %clk reset sync %rst, %zero : !T
  %q = seq.compreg.ce %r, %clk, %en : !T
  %x = comb.xor %q, %a : !T
  %sh = comb.shl %x, %b : !T
  %g = hw.instance "inner" @pass<W: i32 = #hw.param.decl.ref<"W">>(i: %sh: !T) -> (o: !T)
  hw.output %g, %big : !T, i1
}
hw.module @pass<W: i32>(in %i: !hw.int<#hw.param.decl.ref<"W">>, out o: !hw.int<#hw.param.decl.ref<"W">>) {
  hw.output %i : !hw.int<#hw.param.decl.ref<"W">>
}
hw.module @top(in %clk: !seq.clock, in %rst: i1, in %en: i1, in %a: i6, in %b: i6, out s: i6, out gt: i1, out s2: i3, out gt2: i1) {
  %s, %gt = hw.instance "u" @acc<W: i32 = 6>(clk: %clk: !seq.clock, rst: %rst: i1, en: %en: i1, a: %a: i6, b: %b: i6) -> (s: i6, gt: i1)
  %a3 = comb.extract %a from 0 : (i6) -> i3
  %b3 = comb.extract %b from 3 : (i6) -> i3
  %s2, %gt2 = hw.instance "v" @acc<W: i32 = 3>(clk: %clk: !seq.clock, rst: %rst: i1, en: %en: i1, a: %a3: i3, b: %b3: i3) -> (s: i3, gt: i1)
  hw.output %s, %gt, %s2, %gt2 : i6, i1, i3, i1
}
