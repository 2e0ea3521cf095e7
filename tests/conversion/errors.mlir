// An op no pass lowers is reported at the op, naming the pass; the
// translator refuses ops outside the llvm dialect and writes nothing.
// RUN: not silica opt --convert-arith-to-llvm %s 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not silica translate --to-llvmir %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// RUN: test ! -e %t.ll
// PASS: errors.mlir:9:8: error: failed to legalize operation 'arith.scaling_truncf': convert-arith-to-llvm has no lowering for it
// TRANSLATE: errors.mlir:8:1: error: 'func.func' has no LLVM IR translation (lower it to the llvm dialect first)
func.func @f(%a: f32, %s: f8E8M0FNU) -> f4E2M1FN {
  %r = arith.scaling_truncf %a, %s : f32, f8E8M0FNU to f4E2M1FN
  return %r : f4E2M1FN
}
