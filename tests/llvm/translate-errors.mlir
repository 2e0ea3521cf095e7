// A global initializer op LLVM has no constant for is an error at the op
// (as in mlir-translate-22), and
// no output file is written.
// RUN: not silica translate --to-llvmir %s -o %t.ll 2>&1 | FileCheck %s
// RUN: test ! -e %t.ll
// CHECK: translate-errors.mlir:[[# @LINE + 4]]:8: error: 'llvm.freeze' has no constant form in a global's initializer
llvm.mlir.global internal @g(0 : i32) : i32
llvm.mlir.global internal @h() : i32 {
  %0 = llvm.mlir.constant(7 : i32) : i32
  %1 = llvm.freeze %0 : i32
  llvm.return %1 : i32
}
