// Verifier and parser errors of arith ops, with mlir-opt-22's messages.
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --split-input-file --verify-diagnostics %s

"t.f"() ({
^bb0(%a: i32, %x: f32):
  // expected-error @+1 {{'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = arith.addi %x, %x : f32
}) : () -> ()

// -----

"t.f"() ({
^bb0(%a: i32, %x: f32):
  // expected-error @+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64
}) : () -> ()

// -----

"t.f"() ({
^bb0(%a: i32, %x: f32):
  // expected-error @+1 {{custom op 'arith.cmpi' expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %0 = arith.cmpi foo, %a, %a : i32
}) : () -> ()

// -----

"t.f"() ({
^bb0(%a: i32, %x: f32):
  // expected-error @+1 {{'arith.addi' op expected 2 operands, but found 1}}
  %0 = "arith.addi"(%a) : (i32) -> i32
}) : () -> ()

// -----

"t.f"() ({
^bb0(%a: i32, %x: f32):
  // expected-error @+1 {{'arith.constant' op requires attribute 'value'}}
  %0 = "arith.constant"() : () -> i32
}) : () -> ()

// -----

"t.f"() ({
^bb0(%a: i32, %x: f32):
  // expected-error @+1 {{'arith.constant' op integer return type must be signless}}
  %0 = arith.constant 1 : ui32
}) : () -> ()

// -----

"t.f"() ({
// expected-note @+1 {{prior use here}}
^bb0(%a: i32, %x: f32):
  // expected-error @+1 {{use of value '%a' expects different type than prior uses: 'f32' vs 'i32'}}
  %0 = arith.addf %x, %a : f32
}) : () -> ()
