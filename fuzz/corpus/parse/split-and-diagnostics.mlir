// --split-input-file output and --verify-diagnostics, checked against
// mlir-opt-22 doing the same.
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file %s 2>/dev/null || true) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file %s 2>/dev/null || true)
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --split-input-file --verify-diagnostics %s

"foo.ok"() : () -> ()

// -----

// expected-error@+1 {{use of undeclared SSA value name}}
"foo.use"(%undefined) : (i32) -> ()

// -----

%0 = "foo.def"() : () -> i32
// expected-error@+2 {{redefinition of SSA value '%0'}}
// expected-note@-2 {{previously defined here}}
%0 = "foo.def"() : () -> i32

// -----

"foo.a"(%x) : (i32) -> ()
// expected-note@-1 {{prior use here}}
// expected-error@+1 {{use of value '%x' expects different type than prior uses: 'i64' vs 'i32'}}
"foo.b"(%x) : (i64) -> ()

// -----

"foo.region"() ({
  // expected-error@+1 {{operand #0 does not dominate this use}}
  %a = "foo.a"(%b) : (i32) -> i32
  // expected-note@+1 {{operand defined here (op in the same block)}}
  %b = "foo.b"() : () -> i32
  "foo.br"()[^next] : () -> ()
^next:
  "foo.end"() : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{but had 0}}
"foo.x"(%y) : () -> ()

// -----

// expected-error@+1 {{reference to an undefined block}}
"foo.br"()[^missing] : () -> ()

// -----

// expected-error@+1 {{operation defines 1 results but was provided 2 to bind}}
%a, %b = "foo.one"() : () -> i32

// -----

// expected-note@+1 {{see existing symbol definition here}}
"foo.s"() {sym_name = "dup"} : () -> ()
// expected-error@+1 {{redefinition of symbol named 'dup'}}
"foo.s"() {sym_name = "dup"} : () -> ()

// -----

// expected-error@+1 {{integer constant out of range for attribute}}
"foo.x"() {v = 256 : i8} : () -> ()

// -----

// expected-error@+1 {{custom op 'nonsense' is unknown (tried 'builtin.nonsense' as well)}}
nonsense

// -----

// expected-error@+1 {{undefined symbol alias id 'nope'}}
"foo.x"() {v = #nope} : () -> ()

// -----

// expected-error@+2 {{unexpected decimal integer literal for a floating point value}}
// expected-note@+1 {{add a trailing dot to make the literal a float}}
"foo.x"() {v = 1 : f32} : () -> ()
