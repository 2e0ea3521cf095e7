// `silica sim` elaborates parameters: the simulated module takes its
// defaults, instances their values, parametric widths become concrete.
// The Verilog keeps the parameters (widths written `[W - 1:0]`), or,
// after `--hw-specialize`, has one module per set of values.
// RUN: printf '3\n5\n7\n9\n' > %t.stim
// RUN: silica sim %s --top top --stimuli %t.stim | FileCheck %s
// RUN: silica translate --to-verilog %s | FileCheck %s --check-prefix=PARAM
// RUN: silica opt --hw-specialize %s | silica translate --to-verilog | FileCheck %s --check-prefix=SV
// RUN: not silica sim %s --top acc 2>&1 | FileCheck %s --check-prefix=NODEFAULT

// CHECK: cycle 0: q=0 w=000
// CHECK-NEXT: cycle 1: q=3 w=006
// CHECK-NEXT: cycle 2: q=8 w=010
// CHECK-NEXT: cycle 3: q=f w=01e

// PARAM-LABEL: module acc #(
// PARAM-NEXT: parameter [31:0] W = 32'h8,
// PARAM-NEXT: parameter [W - 1:0] STEP = '0
// PARAM: input  [W - 1:0] x,
// PARAM: reg [W - 1:0] r;
// PARAM: r <= r + x * STEP;
// PARAM: initial r = '0;

// SV-LABEL: module acc_W_4_STEP_1(
// SV: input  [3:0] x,
// SV-LABEL: module acc_W_12_STEP_2(
// SV: input  [11:0] x,
// SV: r <= r + x * 12'h2;

// NODEFAULT: error: parameter "STEP" of the simulated module has no default value

hw.module @acc<W: i32 = 8, STEP: !hw.int<#hw.param.decl.ref<"W">>>(in %clk: !seq.clock, in %x: !hw.int<#hw.param.decl.ref<"W">>, out q: !hw.int<#hw.param.decl.ref<"W">>) {
  %step = hw.param.value !hw.int<#hw.param.decl.ref<"W">> = #hw.param.decl.ref<"STEP">
  %0 = comb.mul %x, %step : !hw.int<#hw.param.decl.ref<"W">>
  %s = comb.add %r, %0 : !hw.int<#hw.param.decl.ref<"W">>
  %r = seq.compreg %s, %clk : !hw.int<#hw.param.decl.ref<"W">>
  hw.output %r : !hw.int<#hw.param.decl.ref<"W">>
}
hw.module @top(in %clk: !seq.clock, in %a: i4, out q: i4, out w: i12) {
  %q = hw.instance "narrow" @acc<W: i32 = 4, STEP: i4 = 1>(clk: %clk: !seq.clock, x: %a: i4) -> (q: i4)
  %z = hw.constant 0 : i8
  %wide = comb.concat %z, %a : i8, i4
  %w = hw.instance "wide" @acc<W: i32 = 12, STEP: i12 = 2>(clk: %clk: !seq.clock, x: %wide: i12) -> (q: i12)
  hw.output %q, %w : i4, i12
}
