// inline against mlir-opt-22: bottom-up over the call graph with the
// canonicalizer between rounds, single- and multi-block callees, call-site
// locations, dead private functions erased, recursion and declarations kept.
// RUN: diff <(silica opt --inline --split-input-file %s) <(mlir-opt-22 --inline --split-input-file %s)
// RUN: diff <(silica opt --inline --mlir-print-debuginfo --split-input-file %s) <(mlir-opt-22 --inline --mlir-print-debuginfo --split-input-file %s)
// RUN: diff <(silica opt --inline=default-pipeline= --split-input-file %s) <(mlir-opt-22 --inline=default-pipeline= --split-input-file %s)
// RUN: silica opt --inline --split-input-file %s | FileCheck %s

// CHECK-NOT: func.func private @add
// CHECK-LABEL: func.func @main
// CHECK-NOT: call @
func.func private @add(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}
func.func @sq(%a: i32) -> i32 {
  %0 = arith.muli %a, %a : i32
  %1 = call @add(%0, %a) : (i32, i32) -> i32
  return %1 : i32
}
func.func @main(%x: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %0 = call @sq(%x) : (i32) -> i32
  %1 = call @add(%0, %c2) : (i32, i32) -> i32
  %2 = call @sq(%1) : (i32) -> i32
  return %2 : i32
}

// -----

// CHECK-LABEL: func.func @caller
// CHECK: cf.cond_br
func.func @callee(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.addi %a, %a : i32
  return %x : i32
^bb2:
  return %a : i32
}
func.func @caller(%c: i1, %a: i32) -> i32 {
  %0 = call @callee(%c, %a) : (i1, i32) -> i32
  %1 = arith.muli %0, %0 : i32
  return %1 : i32
}

// -----

// CHECK: func.func private @decl
// CHECK: call @rec
func.func private @unused(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %a, %c1 : i32
  %1 = arith.addi %0, %c1 : i32
  return %1 : i32
}
func.func private @decl(i32) -> i32
func.func @rec(%a: i32) -> i32 {
  %0 = call @rec(%a) : (i32) -> i32
  %1 = call @decl(%0) : (i32) -> i32
  %c0 = arith.constant 0 : i32
  %2 = arith.addi %1, %c0 : i32
  return %2 : i32
}

// -----

// A self-recursive function is never inlined (before, inlining it into a
// caller in another component never ended).
// CHECK-LABEL: func.func @caller_of_recursive
// CHECK-NEXT:    call @self_recursive
// CHECK-NEXT:    call @self_recursive
func.func @caller_of_recursive() {
  func.call @self_recursive() : () -> ()
  func.call @self_recursive() : () -> ()
  return
}
func.func @self_recursive() {
  func.call @self_recursive() : () -> ()
  return
}
