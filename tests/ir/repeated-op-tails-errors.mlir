// A repeated op tail (see repeated-op-tails.mlir) still has to match its
// own operands, and errors in it are reported at the repeat.
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --split-input-file --verify-diagnostics %s

%c = "foo.c"() : () -> i32
%d = "foo.b"(%c) : (i32) -> i32
// expected-error @below {{expected 2 operand types but had 1}}
"foo.b"(%c, %d) : (i32) -> i32

// -----

"foo.a"() <{p = 1}> : () -> ()
// expected-error @below {{expected '>' to close properties}}
"foo.a"() <{p = 1} : () -> ()
