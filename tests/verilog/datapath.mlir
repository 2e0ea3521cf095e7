// A datapath with every comb operator, registers with sync and async
// reset and clock enable, and an instance: the emitted Verilog lints
// clean under Verilator -Wall, synthesises for the iCE40 in yosys, and
// simulates in Icarus exactly as `silica sim` does on random stimuli.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica translate --to-verilog %s -o %t.d/top.sv
// RUN: FileCheck %s < %t.d/top.sv
// Verilator wants one module per file of its name (DECLFILENAME); the
// emitter writes one file.
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module top %t.d/top.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/top.sv; synth_ice40 -dsp -top top"
// RUN: silica sim %s --top top --random 300 --seed 3 --testbench %t.d/tb.sv --vcd %t.d/top.vcd -o %t.d/silica.trace
// RUN: iverilog -g2012 -o %t.d/top.vvp %t.d/top.sv %t.d/tb.sv
// RUN: vvp -N %t.d/top.vvp > %t.d/icarus.trace
// RUN: diff %t.d/silica.trace %t.d/icarus.trace
// RUN: grep -q '^\$enddefinitions' %t.d/top.vcd

// CHECK-LABEL: module alu(
// CHECK: wire [15:0] _GEN_1 = $signed(x) / $signed(_GEN);
// CHECK: wire [15:0] _GEN_4 = $signed(x) >>> _GEN_3;
// CHECK: + (x / _GEN ^ _GEN_2 ^ x % _GEN) + (x << _GEN_3 & x >> _GEN_3 | _GEN_4);
// CHECK: assign r = {_GEN_6[15:8], _GEN_6[3:0], _GEN_6[7:4]};
// CHECK: assign flags = {_GEN_6 == 16'h0, $signed(x) < $signed(y), x <= y, ^_GEN_6};
hw.module @alu(in %x: i16, in %y: i16, in %op: i2, out r: i16, out flags: i4) {
  %one = hw.constant 1 : i16
  %c0 = hw.constant 0 : i16
  %yn = comb.or %y, %one : i16
  %sum = comb.add %x, %y : i16
  %diff = comb.sub %x, %y : i16
  %prod = comb.mul %x, %y, %sum : i16
  %q = comb.divs %x, %yn : i16
  %qu = comb.divu %x, %yn : i16
  %m = comb.mods %x, %yn : i16
  %mu = comb.modu %x, %yn : i16
  %amt = comb.extract %y from 0 : (i16) -> i4
  %amt16 = comb.concat %c12, %amt : i12, i4
  %c12 = hw.constant 0 : i12
  %sl = comb.shl %x, %amt16 : i16
  %sr = comb.shru %x, %amt16 : i16
  %sa = comb.shrs %x, %amt16 : i16
  %b0 = comb.extract %op from 0 : (i2) -> i1
  %b1 = comb.extract %op from 1 : (i2) -> i1
  %t0 = comb.mux %b0, %sum, %diff : i16
  %t1 = comb.mux %b0, %prod, %q : i16
  %t2 = comb.xor %qu, %m, %mu : i16
  %t3 = comb.and %sl, %sr : i16
  %t4 = comb.or %t3, %sa : i16
  %sel = comb.mux %b1, %t0, %t1 : i16
  %s = comb.add %sel, %t2, %t4 : i16
  %hi = comb.extract %s from 8 : (i16) -> i8
  %lo = comb.extract %s from 0 : (i16) -> i4
  %mid = comb.extract %s from 4 : (i16) -> i4
  %r = comb.concat %hi, %lo, %mid : i8, i4, i4
  %z = comb.icmp eq %s, %c0 : i16
  %lt = comb.icmp slt %x, %y : i16
  %ule = comb.icmp ule %x, %y : i16
  %p = comb.parity %s : i16
  %flags = comb.concat %z, %lt, %ule, %p : i1, i1, i1, i1
  hw.output %r, %flags : i16, i4
}

// CHECK-LABEL: module top(
// CHECK: alu u (
// CHECK: assign rev = {_GEN[0], _GEN[1], _GEN[2], _GEN[3], _GEN[4], _GEN[5], _GEN[6], _GEN[7]};
// CHECK: assign tt = _table[{a[0], a[1], en}];
// CHECK: assign rep = {2{a[11:8]}};
// CHECK: always_ff @(posedge clk or posedge arst) begin
hw.module @top(in %clk: !seq.clock, in %rst: i1, in %arst: i1, in %en: i1, in %a: i16, in %b: i16, in %op: i2, out acc: i16, out flags: i4, out rev: i8, out tt: i1, out rep: i8) {
  %c0 = hw.constant 0 : i16
  %c5 = hw.constant 5 : i16
  %u.r, %u.flags = hw.instance "u" @alu(x: %acc: i16, y: %b: i16, op: %op: i2) -> (r: i16, flags: i4)
  %mix = comb.xor %u.r, %a : i16
  %acc = seq.compreg.ce %mix, %clk, %en reset %rst, %c0 : i16
  %f = seq.firreg %u.flags clock %clk reset async %arst, %c4 : i4
  %c4 = hw.constant 9 : i4
  %lowa = comb.extract %a from 0 : (i16) -> i8
  %rev = comb.reverse %lowa : i8
  %a0 = comb.extract %a from 0 : (i16) -> i1
  %a1 = comb.extract %a from 1 : (i16) -> i1
  %tt = comb.truth_table %a0, %a1, %en -> [false, true, true, false, true, false, false, true]
  %nib = comb.extract %a from 8 : (i16) -> i4
  %rep = comb.replicate %nib : (i4) -> i8
  %w = hw.wire %f : i4
  hw.output %acc, %w, %rev, %tt, %rep : i16, i4, i8, i1, i8
}
