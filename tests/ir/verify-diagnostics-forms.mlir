// --verify-diagnostics as mlir-opt-22 reads it: plain expectations are
// substrings, `-re` ones hold `{{regex}}` pieces, `@below` waits for the
// next line without an expectation, one expectation matches every
// diagnostic it describes; and each function (isolated from above) that
// fails reports its own first error. Checked by both tools.
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// Malformed expectations and near misses give mlir-opt's errors:
// RUN: printf '// expect''ed-error-re {{a {{(}} b}}\n\057/ -----\n// expect''ed-error-re {{a {{[0-9]}}\n\057/ -----\nfunc.func @f(i32 i32)  // expect''ed-warning {{expected}}\n' > %t
// RUN: not silica opt --split-input-file --verify-diagnostics %t 2>&1 | FileCheck-22 %s --check-prefix=BAD
// RUN: not mlir-opt-22 --split-input-file --verify-diagnostics %t 2>&1 | FileCheck-22 %s --check-prefix=BAD
// BAD-DAG: :1:4: error: invalid regex: parentheses not balanced
// BAD-DAG: :3:4: error: found start of regex with no end '}}'
// BAD-DAG: :5:27: error: 'error' diagnostic emitted when expecting a 'warning'
// BAD-DAG: :5:27: error: expected warning "expected" was not produced

func.func @f() -> i32 {
  // expected-error-re@+1 {{'func.return' op has {{[0-9]+}} operands, but enclosing function (@{{[a-z]+}}) returns 1}}
  return
}

// -----

// Without `-re`, braces are literal text.
// expected-error@+1 {{expected location, but found '["{{.*}}"]'}}
"t.op"() : () -> () loc(#braces)
#braces = ["{{.*}}"]

// -----

// expected-error@below {{expected affine expression}}
// expected-error@below {{missing operand of negation}}
#m = affine_map<(d0) -> (-)>

// -----

func.func @first() -> i32 {
  // expected-error@+1 {{'arith.constant' op integer return type must be signless}}
  %0 = "arith.constant"() {value = 1 : si32} : () -> si32
  %1 = arith.constant 1 : i32
  return %1 : i32
}

func.func @second() {
  return
}

func.func @third() {
  // expected-error@+1 {{'arith.constant' op value must be an integer, float, or elements attribute}}
  %0 = "arith.constant"() {value = "s" : i32} : () -> i32
  return
}

// -----

func.func @untyped() {
  // expected-error@+1 {{'arith.constant' op attribute 'value' failed to satisfy constraint: TypedAttr instance}}
  %0 = "arith.constant"() {value = [1]} : () -> i32
  return
}
