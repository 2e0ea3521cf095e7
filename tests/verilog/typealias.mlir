// Type aliases (`hw.type_scope`, `hw.typedecl`, `!hw.typealias`) are
// emitted as the types they name: the Verilog lints clean, synthesises,
// and simulates in Icarus exactly as `silica sim` does.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica translate --to-verilog %s -o %t.d/aliases.sv
// RUN: FileCheck %s < %t.d/aliases.sv
// RUN: verilator --lint-only -Wall %t.d/aliases.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/aliases.sv; synth_ice40 -dsp -top aliases"
// RUN: silica sim %s --top aliases --random 100 --seed 3 --testbench %t.d/tb.sv -o %t.d/silica.trace
// RUN: iverilog -g2012 -o %t.d/aliases.vvp %t.d/aliases.sv %t.d/tb.sv
// RUN: vvp -N %t.d/aliases.vvp > %t.d/icarus.trace
// RUN: diff %t.d/silica.trace %t.d/icarus.trace

// CHECK-LABEL: module aliases(
// CHECK-NEXT: input  [7:0] x,
// CHECK-NEXT: input  [11:0] p,
// CHECK-NEXT: input  [15:0] v,
// CHECK: assign sum = x + x;
// CHECK: assign a = p[11:4];
// CHECK: assign q = {p[11:4], 4'h3};
hw.type_scope @__hw_typedecls {
  hw.typedecl @byte, "byte_t" : i8
  hw.typedecl @pair : !hw.struct<a: i8, b: i4>
  hw.typedecl @vec : !hw.array<2xi8>
}
!Byte = !hw.typealias<@__hw_typedecls::@byte, i8>
!Pair = !hw.typealias<@__hw_typedecls::@pair, !hw.struct<a: i8, b: i4>>
!Vec = !hw.typealias<@__hw_typedecls::@vec, !hw.array<2xi8>>
hw.module @aliases(in %x: !Byte, in %p: !Pair, in %v: !Vec, in %i: i1,
                   out sum: !Byte, out a: i8, out b: i4, out e: i8, out q: !Pair) {
  %s = comb.add %x, %x : !Byte
  %a = hw.struct_extract %p["a"] : !Pair
  %b = hw.struct_extract %p["b"] : !Pair
  %e = hw.array_get %v[%i] : !Vec, i1
  %c3 = hw.constant 3 : i4
  %q = hw.struct_inject %p["b"], %c3 : !Pair
  hw.output %s, %a, %b, %e, %q : !Byte, i8, i4, i8, !Pair
}
