// A pass failing on a function that another thread ran is reported at
// that function, as on one thread: only the last function needs a second
// canonicalizer iteration.
// RUN: not silica opt -p 'builtin.module(func.func(canonicalize{max-iterations=1 test-convergence=true}))' %s 2>&1 | FileCheck %s
// RUN: not silica opt --mlir-disable-threading -p 'builtin.module(func.func(canonicalize{max-iterations=1 test-convergence=true}))' %s 2>&1 | FileCheck %s

func.func @a(%x: i32) -> i32 {
  return %x : i32
}

func.func @b(%x: i32) -> i32 {
  %0 = arith.muli %x, %x : i32
  return %0 : i32
}

func.func @c(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}

// CHECK: threading-errors.mlir:[[# @LINE + 1]]:1: error: Canonicalizer failed to converge
func.func @last(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c2 : i32
  %1 = arith.addi %a, %0 : i32
  return %1 : i32
}
