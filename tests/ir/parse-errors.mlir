// Parser diagnostics for attributes, affine maps and operations, with
// mlir-opt-22's messages and locations, checked by both tools.
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --split-input-file --verify-diagnostics %s

// expected-error@+1 {{element type bitwidth must be a multiple of 8}}
"t.op"() {a = array<i12: 3>} : () -> ()

// -----

// expected-error@+1 {{expected 'true' or 'false' values for i1 type}}
"t.op"() {a = array<i1: true, 1>} : () -> ()

// -----

// expected-error@+1 {{expected ':' after dense array type}}
"t.op"() {a = array<i16 3>} : () -> ()

// -----

"t.op"() {a = distinct[7]<"x">} : () -> ()
// expected-error@+1 {{referenced attribute does not match previous definition: "x"}}
"t.op"() {a = distinct[7]<"y">} : () -> ()

// -----

// expected-error@+1 {{expected '<' after distinct ID}}
"t.op"() {a = distinct[7]} : () -> ()

// -----

// expected-error@+1 {{elements literal must be a shaped type}}
"t.op"() {a = sparse<> : f32} : () -> ()

// -----

// expected-error@+1 {{`dense_resource` expected a shaped type}}
"t.op"() {a = dense_resource<blob> : index} : () -> ()

// -----

// expected-error@+1 {{no expression inside parentheses}}
#m = affine_map<(d0) -> (d0 + ())>

// -----

// expected-error@+1 {{missing right operand of binary operator}}
#m = affine_map<(d0) -> (d0 * )>

// -----

// expected-error@+1 {{redefinition of identifier 'x'}}
#m = affine_map<(x)[x] -> (x)>

// -----

// expected-error@+1 {{non-affine expression: right operand of mod has to be either a constant or symbolic}}
#m = affine_map<(d0, d1) -> (d0 mod d1)>

// -----

// expected-error@+1 {{expected '->' or ':'}}
#m = affine_map<(d0)[s0]>

// -----

// expected-error@+1 {{unbalanced '[' character in pretty dialect name}}
"t.op"() {a = #t.attr<[1, 2)>} : () -> ()

// -----

func.func @int_type_as_op() {
  // expected-error@+1 {{expected operation name in quotes}}
  %0 = "t.op"() : () -> i32 i32
  return
}

// -----

func.func @zero_results() {
  // expected-error@+1 {{expected named operation to have at least 1 result}}
  %0:0 = "t.op"() : () -> ()
  return
}

// -----

func.func @successors(%a: i32) {
  // expected-error@+1 {{successors in non-terminator}}
  "arith.addi"(%a, %a)[^bb1] : (i32, i32) -> i32
^bb1:
  return
}

// -----

// expected-error@+1 {{entry block of region may not have predecessors}}
func.func @loop_to_entry() {
^entry:
  cf.br ^next
^next:
  cf.br ^entry
}
