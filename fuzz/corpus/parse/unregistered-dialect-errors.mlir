// Without --allow-unregistered-dialect, ops, types and attributes of
// unknown dialects are rejected with mlir-opt-22's messages and locations.
// RUN: silica opt --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --split-input-file --verify-diagnostics %s

// expected-error @below {{operation being parsed with an unregistered dialect}}
"unknown_dialect.op"() : () -> ()

// -----

// expected-error @below {{#"ud"<"attribute"> : 'none' attribute created with unregistered dialect}}
#a = #ud.attribute

// -----

// expected-error @below {{#"ud"<"b<1>"> : 'i32' attribute created with unregistered dialect}}
"builtin.module"() ({}) {a = #ud.b<1> : i32} : () -> ()

// -----

// expected-error @below {{`!"ud"<"x<"s">">` type created with unregistered dialect}}
!t = !ud<x<"s">>
