// An op no pass lowers is reported at the op, naming the pass; the
// translator refuses ops outside the llvm dialect and writes nothing.
// RUN: not silica opt --convert-arith-to-llvm %s 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not silica translate --to-llvmir %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// RUN: test ! -e %t.ll
// PASS: errors.mlir:9:12: error: failed to legalize operation 'arith.addui_extended': convert-arith-to-llvm has no lowering for it
// TRANSLATE: errors.mlir:8:1: error: 'func.func' has no LLVM IR translation (lower it to the llvm dialect first)
func.func @f(%a: i32, %b: i32) -> i32 {
  %s, %c = arith.addui_extended %a, %b : i32, i1
  return %s : i32
}
