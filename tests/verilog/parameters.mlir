// Module parameters: parameter declarations and overrides in the
// Verilog, `hw.param.value` as constant expressions over them, and the
// same meaning in `silica sim` (which specializes the design) and in
// Icarus running the Verilog, checked by Verilator and yosys too.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica translate --to-verilog %s -o %t.d/params.sv
// RUN: FileCheck %s < %t.d/params.sv
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module params %t.d/params.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/params.sv; synth_ice40 -dsp -top params"
// RUN: silica sim %s --top params --random 60 --seed 5 --testbench %t.d/tb.sv -o %t.d/silica.trace
// RUN: iverilog -g2012 -o %t.d/params.vvp %t.d/params.sv %t.d/tb.sv
// RUN: vvp -N %t.d/params.vvp > %t.d/icarus.trace
// RUN: diff %t.d/silica.trace %t.d/icarus.trace
// RUN: FileCheck %s --check-prefix=TRACE < %t.d/silica.trace

// CHECK-LABEL: module scale #(
// CHECK-NEXT:    parameter [7:0] K = 8'h0,
// CHECK-NEXT:    parameter [7:0] SHIFT = 8'h1
// CHECK-NEXT:  ) (
// CHECK:         assign y = a * (K + 8'h1) + (a << SHIFT) + 8'($clog2(K));
hw.module @scale<K: i8, SHIFT: i8 = 1>(in %a: i8, out y: i8) {
  %k = hw.param.value i8 = #hw.param.expr.add<#hw.param.decl.ref<"K">, 1>
  %s = hw.param.value i8 = #hw.param.decl.ref<"SHIFT">
  %l = hw.param.value i8 = #hw.param.expr.clog2<#hw.param.decl.ref<"K">>
  %m = comb.mul %a, %k : i8
  %sh = comb.shl %a, %s : i8
  %y = comb.add %m, %sh, %l : i8
  hw.output %y : i8
}

// CHECK-LABEL: module params #(
// CHECK-NEXT:    parameter [7:0] GAIN = 8'h6
// CHECK-NEXT:  ) (
// CHECK:         scale #(
// CHECK-NEXT:      .K(GAIN * 8'h2),
// CHECK-NEXT:      .SHIFT(8'h1)
// CHECK-NEXT:    ) double (
// CHECK:         scale #(
// CHECK-NEXT:      .K(8'h5),
// CHECK-NEXT:      .SHIFT(8'h3)
// CHECK-NEXT:    ) five (
hw.module @params<GAIN: i8 = 6>(in %clk: !seq.clock, in %a: i8, out p: i8, out q: i8, out r: i8) {
  %p = hw.instance "double" @scale<K: i8 = #hw.param.expr.mul<#hw.param.decl.ref<"GAIN">, 2>, SHIFT: i8 = 1>(a: %a: i8) -> (y: i8)
  %q = hw.instance "five" @scale<K: i8 = 5, SHIFT: i8 = 3>(a: %a: i8) -> (y: i8)
  %g = hw.param.value i8 = #hw.param.decl.ref<"GAIN">
  %sum = comb.add %r, %g : i8
  %r = seq.compreg %sum, %clk : i8
  hw.output %p, %q, %r : i8, i8, i8
}

// The accumulator adds GAIN's default, 6, each cycle.
// TRACE: cycle 0: p=4a q=ef r=00
// TRACE-NEXT: cycle 1: {{.*}} r=06
// TRACE-NEXT: cycle 2: {{.*}} r=0c
