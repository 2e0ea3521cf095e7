// remove-dead-values against mlir-opt-22, without and with the
// canonicalization of the region ops left: private functions losing dead
// arguments and results unused by every caller, branch arguments dropped
// through a loop of blocks, dead loop-carried values of scf.for and
// scf.while turned into ub.poison, a region op without effects erased,
// a result kept because its op writes memory, an uncalled private
// function whose branch becomes ub.unreachable, a block unreachable on a
// constant condition, and memref.alloca_scope.
// RUN: diff <(silica opt --remove-dead-values=canonicalize=0 -split-input-file %s) <(mlir-opt-22 --remove-dead-values=canonicalize=0 -split-input-file %s)
// RUN: diff <(silica opt --remove-dead-values -split-input-file %s) <(mlir-opt-22 --remove-dead-values -split-input-file %s)
// RUN: silica opt --remove-dead-values=canonicalize=0 -split-input-file %s | FileCheck %s
// RUN: silica opt --remove-dead-values -split-input-file %s | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func private @scale(%arg0: i32) -> i32
// CHECK-NEXT:    %[[C:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[M:.*]] = arith.muli %arg0, %[[C]] : i32
// CHECK-NEXT:    return %[[M]] : i32
// CHECK-LABEL: func.func @caller(
// CHECK:         %[[R:.*]] = call @scale(%arg0) : (i32) -> i32
// CHECK-NEXT:    %{{.*}} = call @scale(%arg1) : (i32) -> i32
// CHECK-NEXT:    return %[[R]] : i32
func.func private @scale(%x: i32, %unused: i64, %y: i32) -> (i32, i32) {
  %c3 = arith.constant 3 : i32
  %m = arith.muli %x, %c3 : i32
  %d = arith.addi %y, %y : i32
  return %m, %d : i32, i32
}
func.func @caller(%a: i32, %b: i32, %w: i64) -> i32 {
  %r:2 = func.call @scale(%a, %w, %a) : (i32, i64, i32) -> (i32, i32)
  %s:2 = func.call @scale(%b, %w, %b) : (i32, i64, i32) -> (i32, i32)
  return %r#0 : i32
}

// -----

// CHECK-LABEL: func.func @blocks(%arg0: i1, %arg1: memref<i32>)
// CHECK:         cf.br ^bb1
// CHECK:       ^bb1:
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1, ^bb2
func.func @blocks(%c: i1, %m: memref<i32>) {
  %z = arith.constant 0 : i32
  %k = arith.constant 7 : i32
  cf.br ^bb1(%z, %z : i32, i32)
^bb1(%dead: i32, %kept: i32):
  memref.store %k, %m[] : memref<i32>
  %next = arith.addi %dead, %kept : i32
  cf.cond_br %c, ^bb1(%next, %next : i32, i32), ^bb2
^bb2:
  return
}

// -----

// CHECK-LABEL: func.func @loops(
// CHECK:         %[[P:.*]] = ub.poison : index
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %arg0, %{{.*}} = %[[P]]) -> (index, index)
// CANON-LABEL: func.func @loops(
// CANON:         scf.for {{.*}} iter_args(%{{.*}} = %arg0) -> (index) {
func.func @loops(%a: index, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %c1) -> (index, index) {
    %x2 = arith.addi %x, %i : index
    %y2 = arith.muli %y, %i : index
    scf.yield %x2, %y2 : index, index
  }
  %pure = scf.execute_region -> index {
    %t = arith.addi %a, %n : index
    scf.yield %t : index
  }
  return %r#0 : index
}

// -----

// CHECK-LABEL: func.func @while_loop(
// CANON-LABEL: func.func @while_loop(
// CANON:         scf.while (%{{.*}} = %arg0) : (i32) -> i32 {
func.func @while_loop(%init: i32, %lim: i32) -> i32 {
  %c9 = arith.constant 9 : i32
  %r:2 = scf.while (%a = %init, %b = %c9) : (i32, i32) -> (i32, i32) {
    %cmp = arith.cmpi slt, %a, %lim : i32
    scf.condition(%cmp) %a, %b : i32, i32
  } do {
  ^bb0(%x: i32, %y: i32):
    %x2 = arith.addi %x, %x : i32
    %y2 = arith.addi %y, %x : i32
    scf.yield %x2, %y2 : i32, i32
  }
  return %r#0 : i32
}

// -----

// CHECK-LABEL: func.func @effects(
// CHECK:         %{{.*}} = scf.if %arg0 -> (i32) {
// CANON-LABEL: func.func @effects(
// CANON:         scf.if %arg0 {
func.func @effects(%c: i1, %m: memref<i32>) {
  %r = scf.if %c -> i32 {
    %one = arith.constant 1 : i32
    memref.store %one, %m[] : memref<i32>
    scf.yield %one : i32
  } else {
    %two = arith.constant 2 : i32
    scf.yield %two : i32
  }
  %s = memref.alloca_scope -> i32 {
    %v = memref.load %m[] : memref<i32>
    memref.store %v, %m[] : memref<i32>
    memref.alloca_scope.return %v : i32
  }
  return
}

// -----

// CHECK-LABEL: func.func private @never_called()
// CHECK-NEXT:    ub.unreachable
func.func private @never_called(%c: i1, %x: i64) -> i64 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %x : i64
^bb2:
  %y = arith.addi %x, %x : i64
  return %y : i64
}

// CHECK-LABEL: func.func @constant_branch(
// CHECK-NOT:     arith.muli
func.func @constant_branch(%x: i64) {
  %false = arith.constant false
  cf.cond_br %false, ^bb1, ^bb2
^bb1:
  %sq = arith.muli %x, %x : i64
  cf.br ^bb1
^bb2:
  return
}
