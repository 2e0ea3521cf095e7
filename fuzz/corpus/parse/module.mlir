// builtin.module custom form, nesting and the implicit top-level module.
// RUN: diff <(silica opt --allow-unregistered-dialect %s) <(mlir-opt-22 --allow-unregistered-dialect %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-op-generic %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-op-generic %s)
// RUN: silica opt %s | FileCheck %s

// CHECK: module @outer attributes {test.x = 1 : i64} {
module @outer attributes {test.x = 1} {
  // CHECK-NEXT: module {
  // CHECK-NEXT: }
  module {
  }
  // CHECK-NEXT: module @inner {
  builtin.module @inner {
    %0 = builtin.unrealized_conversion_cast to i32
    %1 = builtin.unrealized_conversion_cast %0 : i32 to i64
    %2:2 = builtin.unrealized_conversion_cast %0, %1 : i32, i64 to f32, f64
  }
}
