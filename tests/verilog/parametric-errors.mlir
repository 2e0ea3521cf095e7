// Ops whose Verilog needs a concrete width reject a parametric one, at
// the op, and no output file is written.
// RUN: rm -f %t.sv
// RUN: not silica translate --to-verilog %s -o %t.sv 2>&1 | FileCheck %s
// RUN: test ! -e %t.sv

// CHECK: parametric-errors.mlir:[[@LINE+3]]:8: error: 'comb.reverse' on values of parametric type '!hw.int<#hw.param.decl.ref<"W">>' cannot be emitted as Verilog; run --hw-specialize first
hw.module @rev<W: i32>(in %a: !hw.int<#hw.param.decl.ref<"W">>, out o: !hw.int<#hw.param.decl.ref<"W">>) {
  %w = hw.wire %a : !hw.int<#hw.param.decl.ref<"W">>
  %0 = comb.reverse %w : !hw.int<#hw.param.decl.ref<"W">>
  hw.output %0 : !hw.int<#hw.param.decl.ref<"W">>
}
