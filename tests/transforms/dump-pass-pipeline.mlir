// --dump-pass-pipeline prints the pipeline to stderr as mlir-opt-22 does:
// every option of a pass with its value, sorted by name (empty lists as
// nothing), nested pipelines indented, explicit ones kept apart.
// RUN: diff <(silica opt -p 'builtin.module(func.func(canonicalize{max-iterations=3 top-down=false}),func.func(cse),inline,symbol-dce)' --dump-pass-pipeline %s 2>&1 >/dev/null) <(mlir-opt-22 -p 'builtin.module(func.func(canonicalize{max-iterations=3 top-down=false}),func.func(cse),inline,symbol-dce)' --dump-pass-pipeline %s 2>&1 >/dev/null)
// RUN: diff <(silica opt --canonicalize --cse --convert-math-to-llvm --dump-pass-pipeline %s 2>&1 >/dev/null) <(mlir-opt-22 --canonicalize --cse --convert-math-to-llvm --dump-pass-pipeline %s 2>&1 >/dev/null)
// RUN: silica opt -p 'builtin.module(inline)' --dump-pass-pipeline %s 2>&1 >/dev/null | FileCheck %s

// CHECK: Pass Manager with 1 passes:
// CHECK-NEXT: builtin.module(
// CHECK-NEXT:   inline{default-pipeline=canonicalize inlining-threshold=4294967295 max-iterations=4 }
// CHECK-NEXT: )
func.func @f() {
  return
}
