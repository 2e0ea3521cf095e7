// sccp through structured control flow, against mlir-opt-22: an scf.if on
// a constant runs one branch, results join what the taken branches yield,
// loop-carried values of scf.for/affine.for join their inits and the
// yields (constant trip counts decide whether the body runs, or runs
// once), scf.while forwards through scf.condition.
// RUN: diff <(silica opt -p 'builtin.module(func.func(sccp))' --split-input-file %s) <(mlir-opt-22 -p 'builtin.module(func.func(sccp))' --split-input-file %s)
// RUN: silica opt -p 'builtin.module(func.func(sccp))' --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @if_branches
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : i32
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: %[[R:.*]] = scf.if %arg0
// CHECK: return %[[C7]], %[[C3]], %[[R]]
func.func @if_branches(%c: i1, %x: i32) -> (i32, i32, i32) {
  %f = arith.constant false
  %0 = scf.if %f -> (i32) {
    scf.yield %x : i32
  } else {
    %k = arith.constant 7 : i32
    scf.yield %k : i32
  }
  %1 = scf.if %c -> (i32) {
    %a = arith.constant 3 : i32
    scf.yield %a : i32
  } else {
    %b = arith.constant 3 : i32
    scf.yield %b : i32
  }
  %2 = scf.if %c -> (i32) {
    %a = arith.constant 3 : i32
    scf.yield %a : i32
  } else {
    scf.yield %x : i32
  }
  return %0, %1, %2 : i32, i32, i32
}

// -----

// CHECK-LABEL: func.func @loops
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : i32
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : i32
// CHECK: %[[V:.*]] = scf.for
// CHECK: return %[[C5]], %[[C6]], %[[C5]], %[[V]]
func.func @loops(%lb: index, %ub: index, %st: index) -> (i32, i32, i32, i32) {
  %c5 = arith.constant 5 : i32
  %c1 = arith.constant 1 : i32
  // Carried value stays 5 on every iteration.
  %0 = scf.for %i = %lb to %ub step %st iter_args(%a = %c5) -> (i32) {
    %m = arith.muli %a, %c1 : i32
    scf.yield %m : i32
  }
  // Runs once: 5 + 1.
  %1 = affine.for %i = 0 to 1 iter_args(%a = %c5) -> (i32) {
    %s = arith.addi %a, %c1 : i32
    affine.yield %s : i32
  }
  // Never runs.
  %2 = affine.for %i = 4 to 2 iter_args(%a = %c5) -> (i32) {
    %s = arith.addi %a, %c1 : i32
    affine.yield %s : i32
  }
  // Changes every iteration: unknown.
  %3 = scf.for %i = %lb to %ub step %st iter_args(%a = %c5) -> (i32) {
    %s = arith.addi %a, %c1 : i32
    scf.yield %s : i32
  }
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// CHECK-LABEL: func.func @while_loop
// CHECK: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NOT: scf.while
// CHECK: return %[[C2]]
func.func @while_loop(%n: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %0 = scf.while (%a = %c2) : (i32) -> i32 {
    %go = arith.cmpi sgt, %n, %a : i32
    scf.condition(%go) %a : i32
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  return %0 : i32
}
