// `--hw-specialize` makes one copy of a parametric module per set of
// values it is instantiated with, substitutes them into types and
// `hw.param.value`s, narrows array indices to the known length, and
// erases the generic module once nothing instantiates it.
// RUN: silica opt %s --split-input-file --hw-specialize | FileCheck %s

// CHECK-NOT: @addToFirst<
// CHECK-LABEL: hw.module @addToFirst_N_4_X_8(in %vec : !hw.array<4xi8>, in %a : i8, out out : i8) {
// CHECK-NEXT:    %c0_i64 = hw.constant 0 : i64
// CHECK-NEXT:    %0 = comb.extract %c0_i64 from 0 : (i64) -> i2
// CHECK-NEXT:    %1 = hw.array_get %vec[%0] : !hw.array<4xi8>, i2
// CHECK-NEXT:    %2 = comb.add %1, %a : i8
// CHECK-LABEL: hw.module @addToFirst_N_5_X_9(in %vec : !hw.array<5xi9>, in %a : i9, out out : i9) {
// CHECK:         comb.extract %c0_i64 from 0 : (i64) -> i3
// CHECK-LABEL: hw.module @top(
// CHECK-NEXT:    hw.instance "inst1" @addToFirst_N_4_X_8(vec: %vec1: !hw.array<4xi8>, a: %a1: i8) -> (out: i8)
// CHECK-NEXT:    hw.instance "inst2" @addToFirst_N_5_X_9(vec: %vec2: !hw.array<5xi9>, a: %a2: i9) -> (out: i9)
hw.module @addToFirst<N: i32, X: i32>(
    in %vec : !hw.array<#hw.param.decl.ref<"N"> x !hw.int<#hw.param.decl.ref<"X">>>,
    in %a : !hw.int<#hw.param.decl.ref<"X">>,
    out out: !hw.int<#hw.param.decl.ref<"X">>) {
  %c0 = hw.constant 0 : i64
  %first = hw.array_get %vec[%c0] : !hw.array<#hw.param.decl.ref<"N"> x !hw.int<#hw.param.decl.ref<"X">>>, i64
  %0 = comb.add %first, %a : !hw.int<#hw.param.decl.ref<"X">>
  hw.output %0 : !hw.int<#hw.param.decl.ref<"X">>
}
hw.module @top(in %vec1 : !hw.array<4 x !hw.int<8>>, in %a1 : !hw.int<8>,
    in %vec2 : !hw.array<5 x !hw.int<9>>, in %a2 : !hw.int<9>,
    out out1 : !hw.int<8>, out out2 : !hw.int<9>) {
  %0 = hw.instance "inst1" @addToFirst<N: i32 = 4, X: i32 = 8>
    (vec: %vec1 : !hw.array<4 x !hw.int<8>>, a: %a1 : !hw.int<8>) -> (out: !hw.int<8>)
  %1 = hw.instance "inst2" @addToFirst<N: i32 = 5, X: i32 = 9>
    (vec: %vec2 : !hw.array<5 x !hw.int<9>>, a: %a2 : !hw.int<9>) -> (out: !hw.int<9>)
  hw.output %0, %1 : i8, i9
}

// -----

// Parameters passed on through nested instances; names that would clash
// get a suffix; equal values share one copy. Copies open the module in
// the order they are made, as CIRCT places them.
// CHECK-LABEL: hw.module @user_V_8(in %in : i8, out out : i32) {
// CHECK-NEXT:    hw.instance "inst1" @constantGen_V_8_0() -> (out: i32)
// CHECK-NEXT:    hw.instance "inst2" @widthOf_width_8(in: %in: i8) -> ()
// CHECK-LABEL: hw.module @constantGen_V_8_0(out out : i32) {
// CHECK-NEXT:    %c8_i32 = hw.constant 8 : i32
// CHECK-LABEL: hw.module @widthOf_width_8(in %in : i8) {
// CHECK-LABEL: hw.module.extern @constantGen_V_8()
// CHECK-LABEL: hw.module @top(
// CHECK-NEXT:    hw.instance "a" @user_V_8(in: %in: i8) -> (out: i32)
// CHECK-NEXT:    hw.instance "b" @user_V_8(in: %in: i8) -> (out: i32)
hw.module @constantGen<V: i32>(out out: i32) {
  %0 = hw.param.value i32 = #hw.param.decl.ref<"V">
  hw.output %0 : i32
}
hw.module @widthOf<width: i32>(in %in: !hw.int<#hw.param.decl.ref<"width">>) {}
hw.module @user<V: i32>(in %in : !hw.int<#hw.param.decl.ref<"V">>, out out: i32) {
  %0 = hw.instance "inst1" @constantGen<V: i32 = #hw.param.decl.ref<"V">> () -> (out: i32)
  hw.instance "inst2" @widthOf<width: i32 = #hw.param.decl.ref<"V">>(in: %in : !hw.int<#hw.param.decl.ref<"V">>) -> ()
  hw.output %0 : i32
}
hw.module.extern @constantGen_V_8()
hw.module @top(in %in: i8) {
  %0 = hw.instance "a" @user<V: i32 = 8>(in: %in: i8) -> (out: i32)
  %1 = hw.instance "b" @user<V: i32 = 8>(in: %in: i8) -> (out: i32)
}
