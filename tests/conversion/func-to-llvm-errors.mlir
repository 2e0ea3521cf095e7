// convert-func-to-llvm rejects an llvm.linkage that is not a linkage
// attribute, at the function, and writes no output.
// RUN: not silica opt --convert-func-to-llvm %s -o %t.mlir 2>&1 | FileCheck %s
// RUN: test ! -e %t.mlir
// CHECK: func-to-llvm-errors.mlir:[[# @LINE + 1]]:1: error: Contains llvm.linkage attribute not of type LLVM::LinkageAttr
func.func private @bad(i32) attributes {llvm.linkage = 3 : i64}
