// Checks of `llvm.mlir.ifunc`, with MLIR's messages.
// RUN: silica opt %s --split-input-file --verify-diagnostics

llvm.func external @resolve_foo() -> !llvm.ptr attributes {dso_local}
// expected-error@+1 {{'llvm.mlir.ifunc' op resolver must be a definition}}
llvm.mlir.ifunc external @foo : !llvm.func<void (ptr, i32)>, !llvm.ptr @resolve_foo {dso_local}

// -----

llvm.mlir.global external @resolve_foo() : !llvm.ptr
// expected-error@+1 {{'llvm.mlir.ifunc' op must have a function resolver}}
llvm.mlir.ifunc external @foo : !llvm.func<void (ptr, i32)>, !llvm.ptr @resolve_foo {dso_local}

// -----

llvm.func external @resolve_foo() -> !llvm.ptr
// expected-error@+1 {{'llvm.mlir.ifunc' op 'common' linkage not supported in ifuncs}}
llvm.mlir.ifunc common @foo : !llvm.func<void (ptr, i32)>, !llvm.ptr @resolve_foo {dso_local}
