// The README's main job: the bundled affine matmul kernel through
// canonicalize, cse and loop-invariant code motion, as mlir-opt-22 does it.
// RUN: diff <(silica opt --canonicalize --cse --loop-invariant-code-motion %S/../../examples/matmul.mlir) <(mlir-opt-22 --canonicalize --cse --loop-invariant-code-motion %S/../../examples/matmul.mlir)
// RUN: silica opt --canonicalize --cse --loop-invariant-code-motion %S/../../examples/matmul.mlir | FileCheck %s
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: arith.constant
// CHECK: arith.mulf %3, %arg3 : f32
