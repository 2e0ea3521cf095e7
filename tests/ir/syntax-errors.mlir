// Syntax errors get mlir-opt-22's message at its position: malformed
// tokens get the lexer's message whatever the parser expected there; a
// missing token is blamed on the end of the code before it; alias names
// must not contain '.'. Last, the cast verifier's message.
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --split-input-file --verify-diagnostics %s

// expected-error @below {{invalid SSA name}}
"foo.x"(%) : () -> ()

// -----

// expected-error @below {{invalid block name}}
"foo.x"() [^] : () -> ()

// -----

// expected-error @below {{@ identifier expected to start with letter or '_'}}
"foo.x"() {a = @} : () -> ()

// -----

// expected-error @below {{invalid type identifier}}
"foo.x"() : () -> !

// -----

// expected-error @below {{invalid attribute name}}
"foo.x"() {a = #<0>} : () -> ()

// -----

// expected-error @below {{expected '"' in string literal}}
"foo.x"() {a = "x} : () -> ()

// -----

// An empty dialect namespace is rejected.
// expected-error @below {{invalid dialect namespace '""'}}
"foo.x"() {a = [!.0]} : () -> ()

// -----

// expected-error @below {{invalid dialect namespace '""'}}
"foo.x"() {a = #.a<1>} : () -> ()

// -----

// expected-error @below {{attribute names with a '.' are reserved for dialect-defined names}}
#foo.attr = i32

// -----

// expected-error @below {{type names with a '.' are reserved for dialect-defined names}}
!foo.bar = i32

// -----

!missing_eq i32 // expected-error {{expected '=' in type alias definition}}

// -----

#missing_eq 1 // expected-error {{expected '=' in attribute alias definition}}

// -----

!missing_type = // expected-error {{expected non-function type}}

// -----

"foo.x"() {a = 1    b} : () -> () // expected-error {{expected '}' in attribute dictionary}}

// -----

"foo.x"() : () -> ( // expected-error {{expected non-function type}}

// a comment and a blank line later
}

// -----

// expected-error @below {{'builtin.unrealized_conversion_cast' op expected at least one result for cast operation}}
"builtin.unrealized_conversion_cast"() : () -> ()
