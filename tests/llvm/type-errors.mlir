// Invalid llvm types are errors where they are written, with MLIR's
// messages: element, argument and result types an aggregate or function
// cannot have, identified structs given two bodies or redeclared opaque,
// body-less structs outside their own definition, builtin types where an
// llvm keyword belongs, and malformed target extension types.
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s

// expected-error @+1 {{invalid array element type}}
"test.op"() : () -> !llvm.array<2 x token>

// -----

// expected-error @+1 {{invalid function result type}}
"test.op"() : () -> !llvm.func<label (i32)>

// -----

// expected-error @+1 {{invalid function argument type}}
"test.op"() : () -> !llvm.func<i32 (i32, void)>

// -----

// expected-error @+1 {{invalid LLVM structure element type}}
"test.op"() : () -> !llvm.struct<(i32, metadata)>

// -----

"test.op"() : () -> !llvm.struct<"node", (i64, ptr)>
"test.op"() : () -> !llvm.struct<"node", (i64, ptr)>
// expected-error @+1 {{identified type already used with a different body}}
"test.op"() : () -> !llvm.struct<"node", packed (i64, ptr)>

// -----

"test.op"() : () -> !llvm.struct<"later", opaque>
// expected-error @+1 {{identified type already used with a different body}}
"test.op"() : () -> !llvm.struct<"later", (f32)>

// -----

"test.op"() : () -> !llvm.struct<"done", (f32)>
// expected-error @+1 {{redeclaring defined struct as opaque}}
"test.op"() : () -> !llvm.struct<"done", opaque>

// -----

// expected-error @+1 {{only identified structs can be opaque}}
"test.op"() : () -> !llvm.struct<opaque>

// -----

// A recursive struct refers to itself by name only; elsewhere that is an
// error, and so is redefining an enclosing struct.
"test.op"() : () -> !llvm.struct<"list", (i32, struct<"list">)>
// expected-error @+1 {{struct without a body only allowed in a recursive struct}}
"test.op"() : () -> !llvm.struct<"list">

// -----

// expected-error @+1 {{identifier already used for an enclosing struct}}
"test.op"() : () -> !llvm.struct<"outer", (struct<"outer", (i1)>)>

// -----

// expected-error @+1 {{unexpected type, expected keyword}}
"test.op"() : () -> !llvm.i64

// -----

// expected-error @+1 {{unknown LLVM type}}
"test.op"() : () -> !llvm.widget

// -----

// expected-error @+1 {{failed to parse parameter list for target extension type}}
"test.op"() : () -> !llvm.target<"ext", 1, f32>

// -----

// expected-error @+2 {{expected string}}
// expected-error @+1 {{failed to parse LLVMTargetExtType parameter 'extTypeName' which is to be a `::llvm::StringRef`}}
"test.op"() : () -> !llvm.target<f32>
