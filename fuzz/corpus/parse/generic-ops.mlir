// Generic operations, regions, blocks, successors and SSA names, printed
// byte-identically to mlir-opt-22 in custom, generic and debug-info form.
// RUN: diff <(silica opt --allow-unregistered-dialect %s) <(mlir-opt-22 --allow-unregistered-dialect %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-op-generic %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-op-generic %s)
// RUN: diff <(silica opt --allow-unregistered-dialect -mlir-print-debuginfo %s) <(mlir-opt-22 --allow-unregistered-dialect -mlir-print-debuginfo %s)
// RUN: silica opt --allow-unregistered-dialect %s | FileCheck %s

// CHECK-LABEL: "foo.func"
"foo.func"() ({
// CHECK: ^bb0(%arg0: i32, %arg1: f32):
^bb0(%a: i32, %b: f32):
  // CHECK: %[[P:[0-9]+]]:2 = "foo.pair"(%arg0)
  %p:2 = "foo.pair"(%a) : (i32) -> (i32, i64)
  // CHECK: "foo.cond"(%[[P]]#1)[^bb1, ^bb2]
  "foo.cond"(%p#1)[^bb1, ^bb2] : (i64) -> ()
// CHECK: ^bb1:  // pred: ^bb0
^bb1:
  %later = "foo.def"() : () -> i32
  "foo.br"(%later)[^bb3] : (i32) -> ()
// CHECK: ^bb2:  // pred: ^bb0
^bb2:
  "foo.br"(%p#0)[^bb3] : (i32) -> ()
// CHECK: ^bb3(%{{[0-9]+}}: i32):  // 2 preds: ^bb1, ^bb2
^bb3(%x: i32):
  "foo.nested"() ({
    %inner = "foo.use"(%x, %b) <{prop = [1, 2]}> : (i32, f32) -> i1
    "foo.yield"(%inner) : (i1) -> ()
  }, {
  }) {b = "s", a} : () -> ()
  "foo.return"() : () -> ()
// CHECK: ^bb4:  // no predecessors
^bb4:
  "foo.unreachable"() : () -> ()
}) {sym_name = "f"} : () -> ()

"foo.graph"() ({
  %r = "foo.reg"(%r) : (i8) -> i8
}) : () -> ()
"foo.sink"(%fwd) : (i64) -> ()
%fwd = "foo.def"() : () -> i64
%multi:3 = "foo.three"() : () -> (i1, i2, i3)
"foo.sink"(%multi#2, %multi#0) : (i3, i1) -> ()
