// LLVM gives symbols of local linkage the default visibility only: a
// hidden internal alias is an error at the op, and no output is written.
// RUN: not silica translate --to-llvmir %s -o %t.ll 2>&1 | FileCheck %s
// RUN: test ! -e %t.ll
// CHECK: translate-alias-error.mlir:[[# @LINE + 2]]:1: error: a symbol with local linkage must have default visibility
llvm.mlir.global external @g(1 : i32) : i32
llvm.mlir.alias internal hidden @a : i32 {
  %0 = llvm.mlir.addressof @g : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
