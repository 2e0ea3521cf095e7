// reconcile-unrealized-casts against mlir-opt-22: round trips fold
// (through longer chains too), unused casts go, live ones stay.
// RUN: diff <(silica opt --reconcile-unrealized-casts --split-input-file %s) <(mlir-opt-22 --reconcile-unrealized-casts --split-input-file %s)
// RUN: silica opt --reconcile-unrealized-casts --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @round_trips
// CHECK-NOT: unrealized_conversion_cast
// CHECK: arith.addi %arg0, %arg0
func.func @round_trips(%a: i32) -> i32 {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
  %1 = builtin.unrealized_conversion_cast %0 : i64 to i32
  %2 = builtin.unrealized_conversion_cast %a : i32 to index
  %3 = builtin.unrealized_conversion_cast %a : i32 to f32
  %4 = builtin.unrealized_conversion_cast %3 : f32 to i64
  %5 = builtin.unrealized_conversion_cast %4 : i64 to i32
  %6 = arith.addi %1, %5 : i32
  return %6 : i32
}

// -----

// CHECK-LABEL: func.func @live
// CHECK: builtin.unrealized_conversion_cast %arg0 : i32 to i64
func.func @live(%a: i32) -> i64 {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
  return %0 : i64
}
