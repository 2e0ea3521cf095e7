// `!hw.union` values in Verilog: a union is a bit vector as wide as its
// widest field (offset included); a field sits `offset` bits below the
// most significant bit, as CIRCT lays unions out, and a union made from
// one field is zero elsewhere. Icarus simulates both outputs exactly as
// `silica sim` does; Verilator lints them, yosys synthesises the default.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica translate --to-verilog %s -o %t.d/flat.sv
// RUN: FileCheck %s < %t.d/flat.sv
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module unions %t.d/flat.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/flat.sv; synth_ice40 -dsp -top unions"
// RUN: silica sim %s --top unions --random 100 --seed 3 --testbench %t.d/tb.sv -o %t.d/silica.trace
// RUN: iverilog -g2012 -o %t.d/flat.vvp %t.d/flat.sv %t.d/tb.sv
// RUN: vvp -N %t.d/flat.vvp > %t.d/flat.trace
// RUN: diff %t.d/silica.trace %t.d/flat.trace
// RUN: silica translate --to-verilog --full-sv %s -o %t.d/full.sv
// RUN: FileCheck %s --check-prefix=FULL < %t.d/full.sv
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module unions %t.d/full.sv
// RUN: iverilog -g2012 -o %t.d/full.vvp %t.d/full.sv %t.d/tb.sv
// RUN: vvp -N %t.d/full.vvp > %t.d/full.trace
// RUN: diff %t.d/silica.trace %t.d/full.trace

// CHECK-LABEL: module unions(
// CHECK: input  [4:0] a,
// CHECK: assign x = a[2:0];
// CHECK: assign f = a[4];
// CHECK: r <= {2'h0, i};
// FULL: wire struct packed {logic [1:0] p; logic [1:0] q; } [[S:.*]] = a[4:1];
// FULL: assign q = [[S]].q;
!U = !hw.union<foo: i1, br: i3 offset 2, s: !hw.struct<p: i2, q: i2>>
hw.module @unions(in %a: !U, in %i: i3, in %clk: !seq.clock, out x: i3, out z: !U, out q: i2, out f: i1, out back: i3) {
  %x = hw.union_extract %a["br"] : !U
  %s = hw.union_extract %a["s"] : !U
  %f = hw.union_extract %a["foo"] : !U
  %q = hw.struct_extract %s["q"] : !hw.struct<p: i2, q: i2>
  %z = hw.union_create "br", %i : !U
  %r = seq.compreg %z, %clk : !U
  %back = hw.union_extract %r["br"] : !U
  hw.output %x, %r, %q, %f, %back : i3, !U, i2, i1, i3
}
