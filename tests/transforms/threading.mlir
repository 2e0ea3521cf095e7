// Nested pipelines on functions run across threads (the test machine has
// two cores or more) with the output of one thread and of mlir-opt-22
// (threading-errors.mlir checks a failure on another thread).
// RUN: silica opt -p 'builtin.module(func.func(canonicalize,cse,loop-invariant-code-motion))' %s > %t.threads
// RUN: silica opt --mlir-disable-threading -p 'builtin.module(func.func(canonicalize,cse,loop-invariant-code-motion))' %s > %t.one
// RUN: diff %t.threads %t.one
// RUN: mlir-opt-22 -p 'builtin.module(func.func(canonicalize,cse,loop-invariant-code-motion))' %s | diff %t.threads -
// RUN: FileCheck %s < %t.threads

// CHECK-LABEL: func.func @first
// CHECK-NEXT: return %arg0
func.func @first(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  return %0 : i32
}

// CHECK-LABEL: func.func @second
// CHECK: %[[S:.*]] = arith.muli %arg0, %arg1
// CHECK-NEXT: %[[T:.*]] = arith.addi %[[S]], %[[S]]
func.func @second(%a: i32, %b: i32) -> i32 {
  %0 = arith.muli %a, %b : i32
  %1 = arith.muli %a, %b : i32
  %2 = arith.addi %0, %1 : i32
  return %2 : i32
}

// CHECK-LABEL: func.func @third
// CHECK: %[[M:.*]] = arith.muli %arg1, %arg1
// CHECK: scf.for
func.func @third(%n: index, %x: i32, %m: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %sq = arith.muli %x, %x : i32
    memref.store %sq, %m[%i] : memref<?xi32>
  }
  return
}
