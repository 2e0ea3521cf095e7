// Module parameters in CIRCT's syntax: declarations with defaults,
// instance values, parametric widths and lengths, `hw.param.value`, and
// parameter expressions kept canonical (folded, flattened, ordered) as
// CIRCT keeps them; the generic form round-trips.
// RUN: silica opt %s | FileCheck %s
// RUN: silica opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: silica opt %s --mlir-print-op-generic | silica opt | FileCheck %s

// CHECK-LABEL: hw.module @parameters<p1: i42 = 17, p2: i1>(in %arg0 : i8, out out : i8)
// GENERIC: parameters = [#hw.param.decl<"p1": i42 = 17> : i42, #hw.param.decl<"p2": i1> : i1]
hw.module @parameters<p1: i42 = 17, p2: i1>(in %arg0: i8, out out: i8) {
  hw.output %arg0 : i8
}

// CHECK-LABEL: hw.module @UseParameterized(
// CHECK: %inst1.out = hw.instance "inst1" @parameters<p1: i42 = 4, p2: i1 = false>(arg0: %a: i8) -> (out: i8)
// CHECK: hw.instance "inst2" @parameters<p1: i42 = 11, p2: i1 = true>
hw.module @UseParameterized(in %a: i8, out xx: i8, out yy: i8) {
  %r0 = hw.instance "inst1" @parameters<p1: i42 = 4, p2: i1 = 0>(arg0: %a: i8) -> (out: i8)
  %r1 = hw.instance "inst2" @parameters<p1: i42 = 11, p2: i1 = 1>(arg0: %a: i8) -> (out: i8)
  hw.output %r0, %r1: i8, i8
}

// CHECK-LABEL: hw.module.extern @NoArg<param: i42>()
hw.module.extern @NoArg<param: i42>()

// CHECK-LABEL: hw.module @Verbatims<p1: i42>()
// CHECK: @NoArg<param: i42 = #hw.param.verbatim<"\22FOO\22">>() -> ()
// CHECK: @NoArg<param: i42 = #hw.param.expr.add<#hw.param.verbatim<"xxx">, 17>>() -> ()
hw.module @Verbatims<p1: i42>() {
  hw.instance "verbatimparam" @NoArg<param: i42 = #hw.param.verbatim<"\"FOO\"">>() -> ()
  hw.instance "verbatimparam" @NoArg<param: i42 = #hw.param.expr.add<#hw.param.verbatim<"xxx">, 17>>() -> ()
  hw.output
}

// CHECK-LABEL: hw.module @canonical<p1: i4, p2: i4>(
hw.module @canonical<p1: i4, p2: i4>(out o0: i4, out o1: i4, out o2: i4, out o3: i4, out o4: i4,
    out o5: i4, out o6: i4, out o7: i4, out o8: i4, out o9: i4, out o10: i4, out o11: i4, out o12: i4) {
  // Constants fold at the type's width.
  // CHECK-NEXT: %0 = hw.param.value i4 = 6
  %0 = hw.param.value i4 = #hw.param.expr.add<1, 2, 3>
  // Like terms gather: p1 + 4 + p1 = p1*2 + 4.
  // CHECK-NEXT: %1 = hw.param.value i4 = #hw.param.expr.add<#hw.param.expr.mul<#hw.param.decl.ref<"p1">, 2>, 4>
  %1 = hw.param.value i4 = #hw.param.expr.add<#hw.param.decl.ref<"p1">, 4, #hw.param.decl.ref<"p1">>
  // 8 + p1 + 8 wraps to p1.
  // CHECK-NEXT: %2 = hw.param.value i4 = #hw.param.decl.ref<"p1">
  %2 = hw.param.value i4 = #hw.param.expr.add<8, #hw.param.decl.ref<"p1">, 8>
  // Shifts by constants become products.
  // CHECK-NEXT: %3 = hw.param.value i4 = #hw.param.expr.mul<#hw.param.decl.ref<"p1">, 4>
  %3 = hw.param.value i4 = #hw.param.expr.shl<#hw.param.decl.ref<"p1">, 2>
  // Products distribute over sums.
  // CHECK-NEXT: %4 = hw.param.value i4 = #hw.param.expr.add<#hw.param.expr.mul<#hw.param.decl.ref<"p1">, #hw.param.decl.ref<"p2">, 2>, #hw.param.expr.mul<#hw.param.decl.ref<"p2">, 6>>
  %4 = hw.param.value i4 = #hw.param.expr.mul<#hw.param.expr.add<#hw.param.decl.ref<"p1">, 3>, 2, #hw.param.decl.ref<"p2">>
  // CHECK-NEXT: %5 = hw.param.value i4 = #hw.param.expr.mul<#hw.param.decl.ref<"p1">, 5>
  %5 = hw.param.value i4 = #hw.param.expr.add<#hw.param.expr.mul<#hw.param.decl.ref<"p1">, 3>, #hw.param.decl.ref<"p1">, #hw.param.decl.ref<"p1">>
  // Identities: x >> 0, x / 1, x % 1.
  // CHECK-NEXT: %6 = hw.param.value i4 = #hw.param.decl.ref<"p1">
  %6 = hw.param.value i4 = #hw.param.expr.shru<#hw.param.decl.ref<"p1">, 0>
  // CHECK-NEXT: %7 = hw.param.value i4 = #hw.param.decl.ref<"p1">
  %7 = hw.param.value i4 = #hw.param.expr.divs<#hw.param.decl.ref<"p1">, 1>
  // CHECK-NEXT: %8 = hw.param.value i4 = 0
  %8 = hw.param.value i4 = #hw.param.expr.mods<#hw.param.decl.ref<"p1">, 1>
  // Operand order: expressions, verbatims, references, constants.
  // CHECK-NEXT: %9 = hw.param.value i4 = #hw.param.expr.add<#hw.param.verbatim<"X">, #hw.param.decl.ref<"p1">>
  %9 = hw.param.value i4 = #hw.param.expr.add<#hw.param.decl.ref<"p1">, #hw.param.verbatim<"X">>
  // CHECK-NEXT: %10 = hw.param.value i4 = #hw.param.expr.add<#hw.param.expr.mul<#hw.param.decl.ref<"p1">, 4>, #hw.param.verbatim<"xxx">>
  %10 = hw.param.value i4 = #hw.param.expr.add<#hw.param.verbatim<"xxx">, #hw.param.expr.mul<#hw.param.decl.ref<"p1">, 4>>
  // CHECK-NEXT: %11 = hw.param.value i4 = 2
  %11 = hw.param.value i4 = #hw.param.expr.clog2<3>
  // CHECK-NEXT: %12 = hw.param.value i4 = #hw.param.expr.clog2<#hw.param.decl.ref<"p2">>
  %12 = hw.param.value i4 = #hw.param.expr.clog2<#hw.param.decl.ref<"p2">>
  hw.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12
    : i4, i4, i4, i4, i4, i4, i4, i4, i4, i4, i4, i4, i4
}

// Parametric widths and lengths; `!hw.int<17>` is `i17`.
// CHECK-LABEL: hw.module @parameterizedTypes<param: i32, N: i32>(in %a : i17, in %b : !hw.int<#hw.param.decl.ref<"param">>, in %c : !hw.array<#hw.param.decl.ref<"N">xint<#hw.param.decl.ref<"param">>>, in %clk : !seq.clock, out d : !hw.int<#hw.param.decl.ref<"param">>)
// CHECK-NEXT: %0 = comb.add %b, %b : !hw.int<#hw.param.decl.ref<"param">>
// CHECK-NEXT: %1 = seq.compreg %0, %clk : !hw.int<#hw.param.decl.ref<"param">>
hw.module @parameterizedTypes<param: i32, N: i32>(in %a: !hw.int<17>,
    in %b: !hw.int<#hw.param.decl.ref<"param">>,
    in %c: !hw.array<#hw.param.decl.ref<"N"> x !hw.int<#hw.param.decl.ref<"param">>>,
    in %clk: !seq.clock,
    out d: !hw.int<#hw.param.decl.ref<"param">>) {
  %0 = comb.add %b, %b : !hw.int<#hw.param.decl.ref<"param">>
  %1 = seq.compreg %0, %clk : !hw.int<#hw.param.decl.ref<"param">>
  hw.output %1 : !hw.int<#hw.param.decl.ref<"param">>
}

// Instances are checked against the port types with their values.
// CHECK-LABEL: hw.module @parameterizedTypesInstance(
// CHECK: hw.instance "inst" @parameterizedTypes<param: i32 = 12, N: i32 = 3>(a: %a: i17, b: %b: i12, c: %c: !hw.array<3xi12>, clk: %clk: !seq.clock) -> (d: i12)
hw.module @parameterizedTypesInstance(in %a: i17, in %b: i12, in %c: !hw.array<3xi12>, in %clk: !seq.clock) {
  %d = hw.instance "inst" @parameterizedTypes<param: i32 = 12, N: i32 = 3>(a: %a: i17, b: %b: i12, c: %c: !hw.array<3xi12>, clk: %clk: !seq.clock) -> (d: i12)
}

// Parameters of type none take strings; string concatenation folds.
// CHECK-LABEL: hw.module @NoneTypeParam<p1: none>()
hw.module @NoneTypeParam<p1: none>() {}
// CHECK: hw.instance "inst" @NoneTypeParam<p1: none = "top.child">() -> ()
hw.module @ParamConcatInst() {
  hw.instance "inst" @NoneTypeParam<p1: none = #hw.param.expr.str.concat<"top", ".", "child">>() -> ()
}

// A parameter's type may use another parameter.
// CHECK: hw.instance "a" @param_in_param<RESET_VALUE: i96 = 0, DATA_WIDTH: i32 = 96>(input: %input: i96) -> (output: i96)
hw.module.extern @param_in_param<RESET_VALUE: !hw.int<#hw.param.decl.ref<"DATA_WIDTH">>, DATA_WIDTH: i32 = 32>(in %input : !hw.int<#hw.param.decl.ref<"DATA_WIDTH">>, out output : !hw.int<#hw.param.decl.ref<"DATA_WIDTH">>)
hw.module @param_in_param_inst(in %input : i96, out output : i96) {
  %a.output = hw.instance "a" @param_in_param<RESET_VALUE: i96 = 0, DATA_WIDTH: i32 = 96>(input: %input: i96) -> (output: i96)
  hw.output %a.output : i96
}
