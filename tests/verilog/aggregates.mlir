// Arrays and structs, flattened to bit vectors at ports and inside: the
// Verilog lints clean, synthesises, and simulates in Icarus exactly as
// `silica sim` does.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica translate --to-verilog %s -o %t.d/agg.sv
// RUN: FileCheck %s < %t.d/agg.sv
// RUN: verilator --lint-only -Wall %t.d/agg.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/agg.sv; synth_ice40 -dsp -top agg"
// RUN: silica sim %s --top agg --random 200 --seed 5 --testbench %t.d/tb.sv -o %t.d/silica.trace
// RUN: iverilog -g2012 -o %t.d/agg.vvp %t.d/agg.sv %t.d/tb.sv
// RUN: vvp -N %t.d/agg.vvp > %t.d/icarus.trace
// RUN: diff %t.d/silica.trace %t.d/icarus.trace

// CHECK-LABEL: module agg(
// CHECK: input  [31:0] arr,
// CHECK: input  [8:0] s,
// CHECK: arr[i * 8 +: 8]
// CHECK: assign ai = {(i == 2'h3 ? a : arr[31:24]), (i == 2'h2 ? a : arr[23:16]), (i == 2'h1 ? a : arr[15:8]), (i == 2'h0 ? a : arr[7:0])};
hw.module @agg(in %clk: !seq.clock, in %a: i8, in %b: i8, in %c: i1, in %i: i2, in %arr: !hw.array<4xi8>, in %s: !hw.struct<x: i8, y: i1>,
               out get: i8, out sx: i8, out created: !hw.array<2xi8>, out cast: !hw.array<2xi4>, out st: !hw.struct<x: i8, y: i1>,
               out ey: i1, out inj: !hw.struct<x: i8, y: i1>, out slice: !hw.array<2xi8>, out cat: !hw.array<8xi8>, out k: i8, out r: !hw.array<4xi8>, out ai: !hw.array<4xi8>) {
  %c1_i2 = hw.constant 1 : i2
  %get = hw.array_get %arr[%i] : !hw.array<4xi8>, i2
  %x = hw.struct_extract %s["x"] : !hw.struct<x: i8, y: i1>
  %created = hw.array_create %a, %b : i8
  %cast = hw.bitcast %a : (i8) -> !hw.array<2xi4>
  %st = hw.struct_create (%b, %c) : !hw.struct<x: i8, y: i1>
  %ex:2 = hw.struct_explode %s : !hw.struct<x: i8, y: i1>
  %inj = hw.struct_inject %s["y"], %c : !hw.struct<x: i8, y: i1>
  %slice = hw.array_slice %arr[%c1_i2] : (!hw.array<4xi8>) -> !hw.array<2xi8>
  %cat = hw.array_concat %arr, %arr : !hw.array<4xi8>, !hw.array<4xi8>
  %table = hw.aggregate_constant [1 : i8, 2 : i8, 4 : i8, 8 : i8] : !hw.array<4xi8>
  %k = hw.array_get %table[%i] : !hw.array<4xi8>, i2
  %sum = comb.add %x, %ex#0 : i8
  %y = comb.xor %ex#1, %c : i1
  %next = hw.array_create %sum, %get, %k, %a : i8
  %r = seq.compreg %next, %clk : !hw.array<4xi8>
  %ai = hw.array_inject %arr[%i], %a : !hw.array<4xi8>, i2
  hw.output %get, %x, %created, %cast, %st, %y, %inj, %slice, %cat, %k, %r, %ai : i8, i8, !hw.array<2xi8>, !hw.array<2xi4>, !hw.struct<x: i8, y: i1>, i1, !hw.struct<x: i8, y: i1>, !hw.array<2xi8>, !hw.array<8xi8>, i8, !hw.array<4xi8>, !hw.array<4xi8>
}
