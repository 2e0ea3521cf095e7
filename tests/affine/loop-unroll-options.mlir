// Unrolling factors mlir-opt-22 rejects are diagnostics with its wording;
// a factor of zero for unroll-and-jam (on which mlir-opt-22 divides by
// zero) is one too.
// RUN: not silica opt -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=0}))' %s 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not silica opt -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=-2}))' %s 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not silica opt -p 'builtin.module(func.func(affine-loop-unroll{unroll-num-reps=-1}))' %s 2>&1 | FileCheck %s --check-prefix=REPS
// RUN: not silica opt -p 'builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=-1}))' %s 2>&1 | FileCheck %s --check-prefix=JAM
// RUN: not silica opt -p 'builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=0}))' %s 2>&1 | FileCheck %s --check-prefix=JAM0
// ZERO: <unknown>:0: error: Invalid option: 'unroll-factor' should be greater than 0 or equal to -1
// REPS: invalid value '-1' for option 'unroll-num-reps' of pass 'affine-loop-unroll'
// JAM: invalid value '-1' for option 'unroll-jam-factor' of pass 'affine-loop-unroll-jam'
// JAM0: <unknown>:0: error: Invalid option: 'unroll-jam-factor' should be greater than 0

func.func @f(%A: memref<4xf32>, %v: f32) {
  affine.for %i = 0 to 4 {
    affine.store %v, %A[%i] : memref<4xf32>
  }
  return
}
