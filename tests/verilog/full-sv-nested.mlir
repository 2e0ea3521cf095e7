// Full SystemVerilog of nested aggregates: an array of structs (a typedef
// of one, and at ports), a struct holding an array, quoted and keyword
// field names, a zero-width field left out. Verilator (which reads all
// of it; Icarus 11 and yosys 0.23 read no packed arrays of structs) lints
// it clean.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica translate --to-verilog --full-sv %s -o %t.d/nested.sv
// RUN: FileCheck %s < %t.d/nested.sv
// RUN: verilator --lint-only -Wall %t.d/nested.sv

// CHECK: typedef struct packed {logic [7:0] a; logic [3:0] b; } pair_t;
// CHECK-NEXT: typedef struct packed {logic [7:0] a; logic [3:0] b; } [1:0] [[ROW:row_[0-9]+]];
// CHECK-LABEL: module nested(
// CHECK-NEXT: input  [[ROW]] row,
// CHECK-NEXT: input  i,
// CHECK-NEXT: input  struct packed {logic [2:0] reg_0; logic [1:0][1:0] arr; logic [3:0] a_b; } o,
// CHECK-NEXT: output [2:0] f,
// CHECK-NEXT: output [1:0] g,
// CHECK-NEXT: output [3:0] h,
// CHECK-NEXT: output struct packed {logic [7:0] a; logic [3:0] b; } e,
// CHECK-NEXT: output pair_t [1:0] w
// CHECK: wire [1:0][1:0] [[ARR:_GEN[_0-9]*]] = o.arr;
// CHECK: wire struct packed {logic [7:0] a; logic [3:0] b; } [[R0:_GEN[_0-9]*]] = row[0];
// CHECK: wire pair_t [1:0] w_{{[0-9]+}} = {{[{][{]}}[[R0]].a, 4'h7}, row[1]};
// CHECK: assign f = o.reg_0;
// CHECK: assign g = [[ARR]][i];
// CHECK: assign h = o.a_b;
// CHECK: assign e = row[i];
hw.type_scope @__hw_typedecls {
  hw.typedecl @pair, "pair_t" : !hw.struct<a: i8, b: i4>
  hw.typedecl @row : !hw.array<2x!hw.struct<a: i8, b: i4>>
}
!Pair = !hw.typealias<@__hw_typedecls::@pair, !hw.struct<a: i8, b: i4>>
!Row = !hw.typealias<@__hw_typedecls::@row, !hw.array<2x!hw.struct<a: i8, b: i4>>>
!Odd = !hw.struct<reg: i3, empty: i0, arr: !hw.array<2xi2>, "a b": i4>

hw.module @nested(in %row: !Row, in %i: i1, in %o: !Odd,
                  out f: i3, out g: i2, out h: i4, out e: !hw.struct<a: i8, b: i4>, out w: !hw.array<2x!Pair>) {
  %f = hw.struct_extract %o["reg"] : !Odd
  %oarr = hw.struct_extract %o["arr"] : !Odd
  %g = hw.array_get %oarr[%i] : !hw.array<2xi2>, i1
  %h = hw.struct_extract %o["a b"] : !Odd
  %e = hw.array_get %row[%i] : !Row, i1
  %c0 = hw.constant 0 : i1
  %c1 = hw.constant 1 : i1
  %r0 = hw.array_get %row[%c0] : !Row, i1
  %r1 = hw.array_get %row[%c1] : !Row, i1
  %c7 = hw.constant 7 : i4
  %r0b = hw.struct_inject %r0["b"], %c7 : !hw.struct<a: i8, b: i4>
  %p0 = hw.bitcast %r0b : (!hw.struct<a: i8, b: i4>) -> !Pair
  %p1 = hw.bitcast %r1 : (!hw.struct<a: i8, b: i4>) -> !Pair
  %w0 = hw.array_create %p0, %p1 : !Pair
  %w = hw.wire %w0 : !hw.array<2x!Pair>
  hw.output %f, %g, %h, %e, %w : i3, i2, i4, !hw.struct<a: i8, b: i4>, !hw.array<2x!Pair>
}
