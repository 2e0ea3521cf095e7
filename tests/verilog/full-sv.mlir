// Full SystemVerilog (`--full-sv`, as CIRCT writes it): structs and
// arrays keep their packed types at ports, wires and registers, type
// aliases are typedefs, fields and elements are read by name and index.
// Verilator lints it clean and Icarus simulates it exactly as `silica sim`
// does; the default (flattened) output of the same design also
// synthesises in yosys 0.23 and simulates the same. Slices reaching past
// the end read zero in both, as in the simulator.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica translate --to-verilog --full-sv %s -o %t.d/full.sv
// RUN: FileCheck %s < %t.d/full.sv
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module full %t.d/full.sv
// RUN: silica sim %s --top full --random 200 --seed 5 --testbench %t.d/tb.sv -o %t.d/silica.trace
// RUN: iverilog -g2012 -o %t.d/full.vvp %t.d/full.sv %t.d/tb.sv
// RUN: vvp -N %t.d/full.vvp > %t.d/icarus.trace
// RUN: diff %t.d/silica.trace %t.d/icarus.trace
// RUN: silica translate --to-verilog %s -o %t.d/flat.sv
// RUN: FileCheck %s --check-prefix=FLAT < %t.d/flat.sv
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module full %t.d/flat.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/flat.sv; synth_ice40 -dsp -top full"
// RUN: iverilog -g2012 -o %t.d/flat.vvp %t.d/flat.sv %t.d/tb.sv
// RUN: vvp -N %t.d/flat.vvp > %t.d/flat.trace
// RUN: diff %t.d/silica.trace %t.d/flat.trace

// CHECK: typedef struct packed {logic [7:0] a; logic [3:0] b; } pair_t;
// CHECK-LABEL: module leaf(
// CHECK-NEXT: input  pair_t p,
// CHECK-NEXT: output pair_t q
// CHECK: assign q = {p.a + 8'h1, p.b};
// CHECK-LABEL: module full(
// CHECK: input  [1:0][11:0] row,
// CHECK: input  [3:0][7:0] arr,
// CHECK: input  struct packed {logic [2:0] reg_0; logic [1:0][1:0] arr; } o,
// CHECK: output struct packed {logic [7:0] a; logic [3:0] b; } e,
// CHECK: output [1:0][7:0] s,
// CHECK: wire pair_t u_q;
// CHECK: pair_t reg_0;
// CHECK: wire struct packed {logic [7:0] a; logic [3:0] b; } _GEN = row[i];
// CHECK: wire [11:0] _GEN_1 = _GEN;
// CHECK: wire [39:0] _GEN_2 = {8'h0, arr};
// CHECK: wire [1:0][1:0] _GEN_3 = o.arr;
// CHECK: wire pair_t _GEN_4 = n;
// CHECK: assign s = {arr[2], arr[1]};
// CHECK: assign d = _GEN_2[j * 8 +: 16];
// CHECK: assign f = o.reg_0;
// CHECK: assign g = _GEN_3[i];
// CHECK: assign oo = {3'h0, o.arr};

// FLAT-NOT: typedef
// FLAT: input  [11:0] p,
// FLAT: input  [23:0] row,
// FLAT: input  [6:0] o,
// FLAT: wire [39:0] [[VIEW:_GEN_[0-9]+]] = {8'h0, arr};
// FLAT: assign d = [[VIEW]][j * 8 +: 16];

hw.type_scope @__hw_typedecls {
  hw.typedecl @pair, "pair_t" : !hw.struct<a: i8, b: i4>
}
!Pair = !hw.typealias<@__hw_typedecls::@pair, !hw.struct<a: i8, b: i4>>
!Odd = !hw.struct<reg: i3, "a b": i0, arr: !hw.array<2xi2>>

hw.module @leaf(in %p: !Pair, out q: !Pair) {
  %a = hw.struct_extract %p["a"] : !Pair
  %b = hw.struct_extract %p["b"] : !Pair
  %c1 = hw.constant 1 : i8
  %a1 = comb.add %a, %c1 : i8
  %q = hw.struct_create (%a1, %b) : !Pair
  hw.output %q : !Pair
}

hw.module @full(in %clk: !seq.clock, in %rst: i1, in %p: !Pair, in %row: !hw.array<2xi12>, in %i: i1, in %j: i2,
                in %arr: !hw.array<4xi8>, in %o: !Odd, in %n: i12,
                out q: !Pair, out r: !Pair, out e: !hw.struct<a: i8, b: i4>, out x: i12, out s: !hw.array<2xi8>,
                out d: !hw.array<2xi8>, out f: i3, out g: i2, out cast: !Pair, out w: !hw.array<2xi12>, out oo: !Odd) {
  %q = hw.instance "u" @leaf(p: %p: !Pair) -> (q: !Pair)
  %zero = hw.aggregate_constant [0 : i8, 0 : i4] : !Pair
  %reg = seq.compreg %q, %clk reset %rst, %zero : !Pair
  %e0 = hw.array_get %row[%i] : !hw.array<2xi12>, i1
  %e = hw.bitcast %e0 : (i12) -> !hw.struct<a: i8, b: i4>
  %x = hw.bitcast %e : (!hw.struct<a: i8, b: i4>) -> i12
  %c1 = hw.constant 1 : i2
  %s = hw.array_slice %arr[%c1] : (!hw.array<4xi8>) -> !hw.array<2xi8>
  %d = hw.array_slice %arr[%j] : (!hw.array<4xi8>) -> !hw.array<2xi8>
  %f = hw.struct_extract %o["reg"] : !Odd
  %oarr = hw.struct_extract %o["arr"] : !Odd
  %g = hw.array_get %oarr[%i] : !hw.array<2xi2>, i1
  %cast = hw.bitcast %n : (i12) -> !Pair
  %a, %b = hw.struct_explode %cast : !Pair
  %c7 = hw.constant 7 : i4
  %p2 = hw.struct_inject %p["b"], %c7 : !Pair
  %w0 = hw.array_create %p2, %cast : !Pair
  %w1 = hw.bitcast %w0 : (!hw.array<2x!Pair>) -> !hw.array<2xi12>
  %w = hw.wire %w1 : !hw.array<2xi12>
  %xa = comb.xor %a, %a : i8
  %z = hw.constant 0 : i3
  %oo = hw.struct_inject %o["reg"], %z : !Odd
  hw.output %q, %reg, %e, %x, %s, %d, %f, %g, %cast, %w, %oo : !Pair, !Pair, !hw.struct<a: i8, b: i4>, i12, !hw.array<2xi8>, !hw.array<2xi8>, i3, i2, !Pair, !hw.array<2xi12>, !Odd
}
