// Verifier errors of func ops, with mlir-opt-22's messages.
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --split-input-file --verify-diagnostics %s

func.func @f() -> i32 {
  %c = arith.constant 1 : i64
  // expected-error @+1 {{type of return operand 0 ('i64') doesn't match function result type ('i32') in function @f}}
  return %c : i64
}

// -----

func.func @g() -> i32 {
  // expected-error @+1 {{'func.return' op has 0 operands, but enclosing function (@g) returns 1}}
  return
}

// -----

func.func @h() {
  // expected-error @+1 {{block with no terminator}}
  %c = arith.constant 1 : i64
}

// -----

// expected-error @+1 {{'func.func' op type of entry block argument #0('i32') must match the type of the corresponding argument in function signature('f32')}}
func.func @k(f32) {
^bb0(%a: i32):
  return
}

// -----

func.func @l() {
  // expected-error @+1 {{'func.return' op must be the last operation in the parent block}}
  return
  "test.after"() : () -> ()
}

// -----

func.func private @pair() -> (i32, f32)

func.func @call_mismatch() {
  // expected-error @+3 {{'func.call' op result type mismatch at index 0}}
  // expected-note @+2 {{op result types: 'f32', 'i32'}}
  // expected-note @+1 {{function result types: 'i32', 'f32'}}
  %0:2 = call @pair() : () -> (f32, i32)
  return
}

// -----

func.func @call_arity(%a: i32) {
  // expected-error @+1 {{incorrect number of operands for callee}}
  call @call_arity() : () -> ()
  return
}

// -----

func.func @call_nowhere() {
  // expected-error @+1 {{'func.call' op 'nowhere' does not reference a valid function}}
  call @nowhere() : () -> ()
  return
}

// -----

func.func @constant_type() {
  // expected-error @+1 {{reference to function with mismatched type}}
  %f = constant @constant_type : (i32) -> ()
  return
}

// -----

func.func @outer() {
  // expected-error@+1 {{'func.func' op symbol's parent must have the SymbolTable trait}}
  func.func private @inner()
  return
}

// -----

// expected-error@+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @declared(i32)

// -----

// expected-error@+1 {{custom op 'func.func' 'function_type' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
func.func private @typed() attributes {function_type = () -> ()}

// -----

// expected-error@+1 {{'func.func' op expects result attribute array to have the same number of elements as the number of function results, got 2, but expected 1}}
func.func private @results() -> i32 attributes {res_attrs = [{}, {}]}

// -----

// expected-error@+1 {{custom op 'func.func' expected type instead of SSA identifier}}
func.func private @mixed(i32, %b: i32)

// -----

// expected-error@+1 {{@ identifier expected to start with letter or '_'}}
func.func private @.dotted()

// -----

func.func @symbol_operands() {
  // expected-error@+1 {{custom op 'func.constant' invalid kind of attribute specified}}
  %0 = func.constant "f" : () -> ()
  return
}

// -----

func.func @nested_callee() {
  // expected-error@+1 {{custom op 'func.call' invalid kind of attribute specified}}
  func.call @a::@b() : () -> ()
  return
}

// -----

memref.global @g : memref<i32>
func.func @global_by_string() {
  // expected-error@+1 {{custom op 'memref.get_global' invalid kind of attribute specified}}
  %0 = memref.get_global "g" : memref<i32>
  return
}
