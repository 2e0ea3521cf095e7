// Interprocedural sccp against mlir-opt-22: constants passed by every
// call of a private function become constants in its body, constants it
// returns become the calls' results, a public callee keeps its arguments
// but still returns known constants, calls that disagree leave the
// argument alone, an uncalled private function is never entered, and
// per function (func.func(sccp)) calls are opaque.
// RUN: diff <(silica opt --sccp %s) <(mlir-opt-22 --sccp %s)
// RUN: diff <(silica opt --pass-pipeline="builtin.module(func.func(sccp))" %s) <(mlir-opt-22 --pass-pipeline="builtin.module(func.func(sccp))" %s)
// RUN: silica opt --sccp %s | FileCheck %s

// CHECK-LABEL: func.func private @scale(
// CHECK:         %[[C:.*]] = arith.constant 12 : i32
// CHECK:         return %[[C]] : i32
func.func private @scale(%x: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %r = arith.muli %x, %c3 : i32
  return %r : i32
}

// CHECK-LABEL: func.func private @mixed(
// CHECK:         arith.addi %arg0
func.func private @mixed(%x: i32) -> i32 {
  %r = arith.addi %x, %x : i32
  return %r : i32
}

// CHECK-LABEL: func.func @visible(
// CHECK:         arith.subi %arg0
func.func @visible(%x: i32) -> (i32, i32) {
  %c7 = arith.constant 7 : i32
  %r = arith.subi %x, %c7 : i32
  return %c7, %r : i32, i32
}

// CHECK-LABEL: func.func private @never(
// CHECK-NEXT:    arith.constant 2
// CHECK-NEXT:    arith.constant 2
// CHECK-NEXT:    arith.addi
func.func private @never() -> i32 {
  %a = arith.constant 2 : i32
  %b = arith.constant 2 : i32
  %s = arith.addi %a, %b : i32
  return %s : i32
}

// CHECK-LABEL: func.func @main(
// CHECK:         %[[V:.*]]:2 = call @visible
// CHECK:         return %c12_i32, %{{.*}}, %c7_i32, %[[V]]#1
func.func @main(%y: i32) -> (i32, i32, i32, i32) {
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %a = call @scale(%c4) : (i32) -> i32
  %b = call @scale(%c4) : (i32) -> i32
  %m1 = call @mixed(%c4) : (i32) -> i32
  %m2 = call @mixed(%c5) : (i32) -> i32
  %v:2 = call @visible(%c4) : (i32) -> (i32, i32)
  %s = arith.addi %m1, %m2 : i32
  return %a, %s, %v#0, %v#1 : i32, i32, i32, i32
}
