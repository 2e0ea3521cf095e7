// Hierarchical paths and inner references print as the circt wheel
// prints them, in the custom and the generic form, and read back.
// RUN: silica opt %s | FileCheck %s
// RUN: silica opt %s | silica opt | FileCheck %s
// RUN: silica opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: silica opt %s --mlir-print-op-generic | silica opt | FileCheck %s

// CHECK: hw.hierpath private @test [@A::@inst, @B::@w]
// CHECK-NEXT: hw.hierpath @test2 [@A::@inst, @B] {note = "leaf module"}
// GENERIC: "hw.hierpath"() {namepath = [#hw.innerNameRef<@A::@inst>, #hw.innerNameRef<@B::@w>], sym_name = "test", sym_visibility = "private"} : () -> ()
// GENERIC-NEXT: "hw.hierpath"() {namepath = [#hw.innerNameRef<@A::@inst>, @B], note = "leaf module", sym_name = "test2"} : () -> ()
hw.hierpath private @test [@A::@inst, @B::@w]
hw.hierpath @test2 [@A::@inst, @B] {note = "leaf module"}
hw.module @B() {
  %c = hw.constant 0 : i1
  %w = hw.wire %c sym @w : i1
}
hw.module @A() {
  hw.instance "h" sym @inst @B() -> ()
}

// An inner reference as an attribute of its own.
// CHECK: hw.module @Refs() attributes {ref = #hw.innerNameRef<@A::@inst>}
hw.module @Refs() attributes {ref = #hw.innerNameRef<@A::@inst>} {}

// A concatenation of nothing is an i0.
// CHECK: %0 = comb.concat  : {{$}}
// CHECK-NEXT: %1 = comb.concat %0, %0 : i0, i0
hw.module @NullaryConcat(out o: i0) {
  %0 = comb.concat :
  %1 = comb.concat %0, %0 : i0, i0
  hw.output %1 : i0
}
