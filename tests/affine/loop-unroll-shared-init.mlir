// Two iteration arguments with the same initial value: the cleanup loop
// continues each from its own result of the unrolled loop. (mlir-opt-22
// renames every operand equal to the shared initial value in turn, so both
// of its cleanup arguments start from the second result, which changes
// what the function returns; silica keeps the meaning.)
// RUN: silica opt -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=2}))' %s | FileCheck %s

// CHECK-LABEL: func.func @shared_init
// CHECK:         %[[R:.*]]:2 = affine.for %{{.*}} = 0 to #{{.*}}()[%[[N:.*]]] step 2 iter_args(%{{.*}} = %[[X:.*]], %{{.*}} = %[[X]]) -> (f32, f32) {
// CHECK:         %[[S:.*]]:2 = affine.for %{{.*}} = #{{.*}}()[%[[N]]] to %[[N]] iter_args(%{{.*}} = %[[R]]#0, %{{.*}} = %[[R]]#1) -> (f32, f32) {
// CHECK:         return %[[S]]#0, %[[S]]#1 : f32, f32
func.func @shared_init(%x: f32, %n: index) -> (f32, f32) {
  %r:2 = affine.for %i = 0 to %n iter_args(%a = %x, %b = %x) -> (f32, f32) {
    %a2 = arith.addf %a, %a : f32
    %b2 = arith.mulf %b, %b : f32
    affine.yield %a2, %b2 : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}
