// scf canonicalization against mlir-opt-22: trivial scf.if to select,
// static conditions, forwarded and empty scf.for loops.
// RUN: diff <(silica opt --canonicalize %s) <(mlir-opt-22 --canonicalize %s)
// RUN: silica opt --canonicalize %s | FileCheck %s

// CHECK-LABEL: func.func @select
// CHECK-NEXT: arith.select
// CHECK-LABEL: func.func @static
// CHECK-NOT: scf.if
// CHECK-LABEL: func.func @loop
// CHECK-NOT: scf.for
func.func @select(%c: i1, %a: index, %b: index) -> (index, index) {
  %0:2 = scf.if %c -> (index, index) {
    scf.yield %a, %b : index, index
  } else {
    scf.yield %b, %b : index, index
  }
  return %0#0, %0#1 : index, index
}
func.func @static(%m: memref<i32>, %v: i32) -> i32 {
  %true = arith.constant true
  %r = scf.if %true -> i32 {
    %x = arith.addi %v, %v : i32
    memref.store %x, %m[] : memref<i32>
    scf.yield %x : i32
  } else {
    scf.yield %v : i32
  }
  return %r : i32
}
func.func @loop(%n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z) -> (i32) {
    scf.yield %s : i32
  }
  %e = scf.for %i = %c1 to %c0 step %c1 iter_args(%s = %z) -> (i32) {
    %t = arith.addi %s, %s : i32
    scf.yield %t : i32
  }
  %sum = arith.addi %r, %e : i32
  return %sum : i32
}
