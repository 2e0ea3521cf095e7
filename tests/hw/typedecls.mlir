// Type declarations and type aliases print as CIRCT prints them (custom
// and generic forms).
// RUN: silica opt %s | FileCheck %s
// RUN: silica opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: hw.type_scope @__hw_typedecls {
// CHECK-NEXT:    hw.typedecl @foo : i1
// CHECK-NEXT:    hw.typedecl @baz, "MY_NAMESPACE_baz" : i8
// CHECK-NEXT:    hw.typedecl @nested : !hw.struct<a: !hw.typealias<@__hw_typedecls::@foo, i1>, b: i1>
// CHECK-NEXT:  }
// CHECK-NEXT:  hw.type_scope @empty {
// CHECK-NEXT:  }
// CHECK: hw.module @m(in %a : !hw.typealias<@__hw_typedecls::@foo, i1>, out o : !hw.typealias<@__hw_typedecls::@foo, i1>)
// CHECK-NEXT: comb.add %a, %a : !hw.typealias<@__hw_typedecls::@foo, i1>
// GENERIC: "hw.type_scope"() ({
// GENERIC-NEXT: "hw.typedecl"() {sym_name = "foo", type = i1} : () -> ()
// GENERIC-NEXT: "hw.typedecl"() {sym_name = "baz", type = i8, verilogName = "MY_NAMESPACE_baz"} : () -> ()
// GENERIC: }) {sym_name = "__hw_typedecls"} : () -> ()
// GENERIC-NEXT: "hw.type_scope"() ({
// GENERIC-NEXT: ^bb0:
// GENERIC-NEXT: }) {sym_name = "empty"} : () -> ()
hw.type_scope @__hw_typedecls {
  hw.typedecl @foo : i1
  hw.typedecl @baz, "MY_NAMESPACE_baz" : i8
  hw.typedecl @nested : !hw.struct<a: !hw.typealias<@__hw_typedecls::@foo, i1>, b: i1>
}
hw.type_scope @empty {
}
hw.module @m(in %a: !hw.typealias<@__hw_typedecls::@foo, i1>, out o: !hw.typealias<@__hw_typedecls::@foo, i1>) {
  %0 = comb.add %a, %a : !hw.typealias<@__hw_typedecls::@foo, i1>
  hw.output %0 : !hw.typealias<@__hw_typedecls::@foo, i1>
}

