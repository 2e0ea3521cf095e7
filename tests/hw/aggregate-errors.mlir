// Checks of aggregate types and ops, with CIRCT's messages.
// RUN: silica opt %s --split-input-file --verify-diagnostics

hw.module @s(in %a: !hw.struct<foo: i32, bar: i18>) {
  // expected-error @+1 {{'hw.struct_extract' op field index 2 exceeds element count of aggregate type}}
  %0 = "hw.struct_extract"(%a) {fieldIndex = 2 : i32} : (!hw.struct<foo: i32, bar: i18>) -> i18
}

// -----

hw.module @s(in %a: !hw.struct<foo: i32, bar: i18>) {
  // expected-error @+1 {{'hw.struct_extract' op type 'i18' of accessed field in aggregate at index 1 does not match expected type 'i19'}}
  %0 = "hw.struct_extract"(%a) {fieldIndex = 1 : i32} : (!hw.struct<foo: i32, bar: i18>) -> i19
}

// -----

hw.module @s(in %a: !hw.struct<foo: i32, bar: i18>, in %b: i42) {
  // expected-error @+1 {{'hw.struct_inject' op type 'i18' of accessed field in aggregate at index 1 does not match expected type 'i42'}}
  %0 = "hw.struct_inject"(%a, %b) {fieldIndex = 1 : i32} : (!hw.struct<foo: i32, bar: i18>, i42) -> !hw.struct<foo: i32, bar: i18>
}

// -----

hw.module @s(in %a: i8) {
  // expected-error @+1 {{custom op 'hw.struct_extract' invalid kind of type specified}}
  %0 = hw.struct_extract %a["foo"] : i8
}

// -----

hw.module @c() {
  // expected-error @+1 {{'hw.aggregate_constant' op array attribute (2) has wrong size for array constant (1)}}
  %0 = hw.aggregate_constant [[1 : i8], [2 : i8, 3 : i8]] : !hw.array<2x!hw.array<1xi8>>
}

// -----

hw.module @c() {
  // expected-error @+1 {{'hw.aggregate_constant' op array attribute (1) has wrong size for unpacked array constant (2)}}
  %0 = hw.aggregate_constant [42 : i8] : !hw.uarray<2xi8>
}

// -----

hw.module @c() {
  // expected-error @+1 {{'hw.aggregate_constant' op hw.constant attribute bitwidth doesn't match return type}}
  %0 = hw.aggregate_constant [1 : i8, 2 : i4] : !hw.struct<a: i8, b: i8>
}

// -----

hw.module @c() {
  // expected-error @+1 {{'hw.aggregate_constant' op expected integer attribute for constant of type 'i8'}}
  %0 = hw.aggregate_constant ["x"] : !hw.array<1xi8>
}

// -----

hw.module @c() {
  // expected-error @+1 {{'hw.aggregate_constant' op typed attr doesn't match the return type '!seq.clock'}}
  %0 = hw.aggregate_constant [32 : i16] : !hw.array<1x!seq.clock>
}

// -----

hw.module @c() {
  // expected-error @+1 {{custom op 'hw.aggregate_constant' invalid kind of type specified}}
  %0 = hw.aggregate_constant [1 : i8] : i8
}

// -----

// expected-error @+1 {{duplicate field name 'a'}}
hw.module @d(in %a: !hw.struct<a: i1, b: i1, a: i2>) {}

// -----

// expected-error @+1 {{invalid element for hw.inout type '!seq.clock'}}
hw.module @io(in %a: !hw.inout<!seq.clock>) {}

// -----

// expected-error @+1 {{invalid element for hw.inout type '!hw.array<2xf32>'}}
hw.module @io(in %a: !hw.inout<!hw.array<2xf32>>) {}

// -----

func.func @notModule() {
  return
}
hw.module @i(in %a: i1) {
  // expected-error @+1 {{symbol reference 'notModule' isn't a module}}
  hw.instance "foo" @notModule(a: %a: i1) -> ()
}

// -----

hw.module @one(in %a: !hw.array<1xi8>, in %i: i1, in %j: i2) {
  %0 = hw.array_get %a[%i] : !hw.array<1xi8>, i1
  // expected-error @+1 {{'hw.array_get' op failed to verify that index bit width equals ceil(log2(length(input))), or 0 or 1 if input contains only one element}}
  %1 = hw.array_get %a[%j] : !hw.array<1xi8>, i2
}
