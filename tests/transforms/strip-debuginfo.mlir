// strip-debuginfo against mlir-opt-22: op and argument locations become unknown.
// RUN: diff <(silica opt --strip-debuginfo --mlir-print-debuginfo --allow-unregistered-dialect %s) <(mlir-opt-22 --strip-debuginfo --mlir-print-debuginfo --allow-unregistered-dialect %s)
// RUN: silica opt --strip-debuginfo --mlir-print-debuginfo --allow-unregistered-dialect %s | FileCheck %s

// CHECK: #loc = loc(unknown)
// CHECK-NOT: loc("
func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = "foo"(%a) : (i32) -> i32 loc(fused["foo", "x.cc":10:8])
  "foo.region"() ({
  ^bb0(%x: i32 loc("argloc")):
    %s = arith.addi %x, %b : i32 loc(callsite("f" at "g"))
    "foo.yield"(%s) : (i32) -> ()
  }) : () -> ()
  return %0 : i32 loc("bar")
}
