// `!hw.enum`, `hw.enum.constant` and `hw.enum.cmp` print as CIRCT 1.62
// prints them (the expected text is the circt wheel's output); their
// checks give the messages of CIRCT's tests.
// RUN: silica opt %s --split-input-file --verify-diagnostics | FileCheck %s
// RUN: silica opt %s --split-input-file --verify-diagnostics --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: hw.module @E(in %x : !hw.enum<A, B, C>, in %y : !hw.enum<D>, out o : i1, out e : !hw.enum<A, B, C>) {
// CHECK-NEXT: %A = hw.enum.constant A : !hw.enum<A, B, C>
// CHECK-NEXT: %B = hw.enum.constant B : !hw.enum<A, B, C>
// CHECK-NEXT: %0 = hw.enum.cmp %A, %x : !hw.enum<A, B, C>, !hw.enum<A, B, C>
// CHECK-NEXT: %1 = hw.aggregate_constant ["A"] : !hw.struct<a: !hw.enum<A, B, C>>
// CHECK-NEXT: %2 = hw.aggregate_constant ["B"] : !hw.array<1xenum<A, B, C>>
// CHECK-NEXT: %3 = hw.bitcast %x : (!hw.enum<A, B, C>) -> i2
// CHECK-NEXT: hw.output %0, %B : i1, !hw.enum<A, B, C>
// GENERIC: "hw.enum.constant"() {field = #hw.enum.field<A, !hw.enum<A, B, C>>} : () -> !hw.enum<A, B, C>
hw.module @E(in %x: !hw.enum<A, B, C>, in %y: !hw.enum<D>, out o: i1, out e: !hw.enum<A, B, C>) {
  %A_enum = hw.enum.constant A : !hw.enum<A, B, C>
  %B_enum = hw.enum.constant B : !hw.enum<A, B, C>
  %enumcmp = hw.enum.cmp %A_enum, %x : !hw.enum<A, B, C>, !hw.enum<A, B, C>
  %c = hw.aggregate_constant ["A"] : !hw.struct<a: !hw.enum<A, B, C>>
  %d = hw.aggregate_constant ["B"] : !hw.array<1 x!hw.enum<A, B, C>>
  %w = hw.bitcast %x : (!hw.enum<A, B, C>) -> i2
  hw.output %enumcmp, %B_enum : i1, !hw.enum<A, B, C>
}

// -----

hw.module @foo() {
  // expected-error @+1 {{enum value 'D' is not a member of enum type '!hw.enum<A, B, C>'}}
  %0 = hw.enum.constant D : !hw.enum<A, B, C>
}

// -----

hw.module @foo() {
  // expected-error @+1 {{return type '!hw.enum<A, B>' does not match attribute type #hw.enum.field<A, !hw.enum<A>>}}
  %0 = "hw.enum.constant"() {field = #hw.enum.field<A, !hw.enum<A>>} : () -> !hw.enum<A, B>
}

// -----

hw.module @foo() {
  %0 = hw.enum.constant A : !hw.enum<A>
  %1 = hw.enum.constant B : !hw.enum<B>
  // expected-error @+1 {{types do not match}}
  %2 = hw.enum.cmp %0, %1 : !hw.enum<A>, !hw.enum<B>
}

// -----

hw.module @foo() {
  // expected-error @+1 {{'hw.aggregate_constant' op enum value "Q" is not a member of enum type '!hw.enum<A, B, C>'}}
  %1 = hw.aggregate_constant ["Q"] : !hw.struct<a: !hw.enum<A, B, C>>
}

// -----

hw.module @E(in %y: !hw.enum<A, B, C, D>) {
  // expected-error @+1 {{'hw.bitcast' op Bitwidth of input must match result}}
  %w = hw.bitcast %y : (!hw.enum<A, B, C, D>) -> i3
}
