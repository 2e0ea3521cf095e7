// `!hw.union` and its ops print as CIRCT 1.62 prints them (the expected
// text is the circt wheel's output); their checks give CIRCT's messages.
// RUN: silica opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: hw.module @U(in %a : !hw.union<foo: i1, br: i3 offset 2>, in %b : !hw.array<2xunion<x: i2, y: i4>>, in %c : !hw.union<>, out x : i3, out z : !hw.union<bar: i3, baz: i8>) {
// CHECK-NEXT: %0 = hw.union_extract %a["br"] : !hw.union<foo: i1, br: i3 offset 2>
// CHECK-NEXT: %1 = hw.union_create "bar", %0 : !hw.union<bar: i3, baz: i8>
// CHECK-NEXT: %2 = hw.bitcast %a : (!hw.union<foo: i1, br: i3 offset 2>) -> i5
// CHECK-NEXT: hw.output %0, %1 : i3, !hw.union<bar: i3, baz: i8>
hw.module @U(in %a: !hw.union<foo: i1, br: i3 offset 2>, in %b: !hw.array<2x!hw.union<x: i2, y: i4 offset 0>>, in %c: !hw.union<>, out x: i3, out z: !hw.union<bar: i3, baz: i8>) {
  %x = hw.union_extract %a["br"] : !hw.union<foo: i1, br: i3 offset 2>
  %z = hw.union_create "bar", %x : !hw.union<bar: i3, baz: i8>
  %w = hw.bitcast %a : (!hw.union<foo: i1, br: i3 offset 2>) -> i5
  hw.output %x, %z : i3, !hw.union<bar: i3, baz: i8>
}

// -----

hw.module @u(in %a: i42) {
  // expected-error @+1 {{custom op 'hw.union_create' cannot find union field 'bar'}}
  %u = hw.union_create "bar", %a : !hw.union<foo: i42>
}

// -----

hw.module @u(in %a: i42) {
  // expected-error @+1 {{'hw.union_create' op field index 1 exceeds element count of aggregate type}}
  %0 = "hw.union_create"(%a) {fieldIndex = 1 : i32} : (i42) -> !hw.union<foo: i42>
}

// -----

hw.module @u(in %a: i12) {
  // expected-error @+1 {{'hw.union_create' op type 'i42' of accessed field in aggregate at index 0 does not match expected type 'i12'}}
  %0 = "hw.union_create"(%a) {fieldIndex = 0 : i32} : (i12) -> !hw.union<foo: i42, bar: i12>
}

// -----

hw.module @u(in %a: !hw.union<foo: i42>) {
  // expected-error @+1 {{custom op 'hw.union_extract' field name 'bar' not found in aggregate type}}
  %0 = hw.union_extract %a["bar"] : !hw.union<foo: i42>
}

// -----

hw.module @u(in %a: !hw.union<foo: i42, bar: i12>) {
  // expected-error @+2 {{'hw.union_extract' op failed to infer returned types}}
  // expected-error @+1 {{'hw.union_extract' op inferred type(s) 'i12' are incompatible with return type(s) of operation 'i42'}}
  %0 = "hw.union_extract"(%a) {fieldIndex = 1 : i32} : (!hw.union<foo: i42, bar: i12>) -> i42
}

// -----

// expected-error @+1 {{duplicate field name 'foo' in hw.union type}}
hw.module @u(in %a: !hw.union<foo: i8, bar: i8, foo: i8>) {}
