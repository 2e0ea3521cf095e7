// A global initializer that is not a constant is an error at the op, and
// no output file is written.
// RUN: not silica translate --to-llvmir %s -o %t.ll 2>&1 | FileCheck %s
// RUN: test ! -e %t.ll
// CHECK: translate-errors.mlir:[[# @LINE + 4]]:8: error: 'llvm.load' has no constant form in a global's initializer
llvm.mlir.global internal @g(0 : i32) : i32
llvm.mlir.global internal @h() : i32 {
  %0 = llvm.mlir.addressof @g : !llvm.ptr
  %1 = llvm.load %0 : !llvm.ptr -> i32
  llvm.return %1 : i32
}
