// Large files repeat the same op tails (`<{props}> {attrs} : type`);
// silica parses each distinct tail text once. Repeats must mean the same
// as the first occurrence wherever they appear: after operands, after
// successors, after regions, with and without properties, and with a
// trailing location or comment on the line.
// RUN: diff <(silica opt --allow-unregistered-dialect %s) <(mlir-opt-22 --allow-unregistered-dialect %s)
// RUN: diff <(silica opt --allow-unregistered-dialect -mlir-print-debuginfo %s) <(mlir-opt-22 --allow-unregistered-dialect -mlir-print-debuginfo %s)
// RUN: silica opt --allow-unregistered-dialect %s | FileCheck %s

// CHECK-LABEL: "foo.region"
// CHECK: %0 = "foo.a"(%arg0) <{p = 1 : i32}> {q = "x"} : (i32) -> i32
// CHECK-NEXT: %1 = "foo.a"(%0) <{p = 1 : i32}> {q = "x"} : (i32) -> i32
// CHECK-NEXT: %2 = "foo.a"(%1) <{p = 1 : i32}> {q = "x"} : (i32) -> i32
// CHECK-NEXT: %3 = "foo.b"(%2) : (i32) -> i32
// CHECK-NEXT: %4 = "foo.b"(%3) <{p = 2 : i32}> : (i32) -> i32
// CHECK-NEXT: %5 = "foo.r"(%4) <{p = 1 : i32}> ({
// CHECK: %6 = "foo.r"(%5) <{p = 3 : i32}> ({
// CHECK: "foo.br"(%6)[^bb1] : (i32) -> ()
"foo.region"() ({
^bb0(%x: i32):
  %0 = "foo.a"(%x) <{p = 1 : i32}> {q = "x"} : (i32) -> i32
  %1 = "foo.a"(%0) <{p = 1 : i32}> {q = "x"} : (i32) -> i32
  %2 = "foo.a"(%1) <{p = 1 : i32}> {q = "x"} : (i32) -> i32 loc("elsewhere":3:4)
  %3 = "foo.b"(%2) : (i32) -> i32
  %4 = "foo.b"(%3) <{p = 2 : i32}> : (i32) -> i32 // a comment
  %5 = "foo.r"(%4) <{p = 1 : i32}> ({
    "foo.y"() : () -> ()
  }) : (i32) -> i32
  %6 = "foo.r"(%5) <{p = 3 : i32}> ({
    "foo.y"() : () -> ()
  }) : (i32) -> i32
  "foo.br"(%6)[^bb1] : (i32) -> ()
^bb1:
  "foo.br"(%6)[^bb1] : (i32) -> ()
}) : () -> ()

// A tail cached after a region holds no properties: the op after the
// region must not pick up the region op's `<{p = 7}>`.
// CHECK-LABEL: "foo.props_then_region"
// CHECK: "foo.outer"() <{p = 7 : i32}> ({
// CHECK: "foo.plain"() : () -> ()
// CHECK-NEXT: "foo.plain"() : () -> ()
"foo.props_then_region"() ({
  "foo.outer"() <{p = 7 : i32}> ({
    "foo.inner"() : () -> ()
  }) : () -> ()
  "foo.plain"() : () -> ()
  "foo.plain"() : () -> ()
}) : () -> ()
