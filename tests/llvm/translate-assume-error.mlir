// LLVM takes operand bundles on an assume of `true` only: any other
// condition is an error at the op, and no output file is written.
// RUN: not silica translate --to-llvmir %s -o %t.ll 2>&1 | FileCheck %s
// RUN: test ! -e %t.ll
// CHECK: translate-assume-error.mlir:[[# @LINE + 2]]:3: error: assume with operand bundles must have an i1 true condition
llvm.func @f(%p: !llvm.ptr, %c: i1) {
  llvm.intr.assume %c ["nonnull"(%p : !llvm.ptr)] : i1
  llvm.return
}
