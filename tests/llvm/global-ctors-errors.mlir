// Checks of `llvm.mlir.global_ctors`/`global_dtors`, with MLIR's messages.
// RUN: silica opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{'llvm.mlir.global_ctors' op ctors, priorities, and data must have the same number of elements}}
llvm.mlir.global_ctors ctors = [@f], priorities = [], data = [#llvm.zero]
llvm.func @f() {
  llvm.return
}

// -----

// expected-error @+1 {{'llvm.mlir.global_dtors' op 'f' does not have a definition}}
llvm.mlir.global_dtors dtors = [@f], priorities = [0 : i32], data = [#llvm.zero]
llvm.func @f()

// -----

// expected-error @+1 {{'llvm.mlir.global_ctors' op 'nope' does not reference a valid LLVM function}}
llvm.mlir.global_ctors ctors = [@nope], priorities = [0 : i32], data = [#llvm.zero]

// -----

// expected-error @+1 {{'llvm.mlir.global_dtors' op data element must be symbol or #llvm.zero}}
llvm.mlir.global_dtors dtors = [@f], priorities = [0 : i32], data = [0 : i32]
llvm.func @f() {
  llvm.return
}
