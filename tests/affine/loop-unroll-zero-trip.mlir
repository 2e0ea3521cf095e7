// A loop that never runs is left as it is by every unrolling mode
// (mlir-opt-22 agrees, except with unroll-up-to-factor, where it unrolls
// by the trip count 0 and crashes dividing by it).
// RUN: diff <(silica opt -allow-unregistered-dialect -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=-1}))' %s) <(mlir-opt-22 -allow-unregistered-dialect -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=-1}))' %s)
// RUN: diff <(silica opt -allow-unregistered-dialect -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=2}))' %s) <(mlir-opt-22 -allow-unregistered-dialect -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=2}))' %s)
// RUN: diff <(silica opt -allow-unregistered-dialect -p 'builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=2}))' %s) <(mlir-opt-22 -allow-unregistered-dialect -p 'builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=2}))' %s)
// RUN: silica opt -allow-unregistered-dialect -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=4 unroll-up-to-factor=true}))' %s | FileCheck %s

// The loop of two iterations unrolls by two (its trip count) and, left
// with one iteration, is promoted.
// CHECK-LABEL: func.func @zero_trips
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    affine.for %[[I:.*]] = 5 to 5 {
// CHECK-NEXT:      "use"(%[[I]]) : (index) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    "use"(%[[C0]]) : (index) -> ()
// CHECK-NEXT:    %[[J1:.*]] = affine.apply #{{.*}}(%[[C0]])
// CHECK-NEXT:    "use"(%[[J1]]) : (index) -> ()
// CHECK-NEXT:    return
func.func @zero_trips() {
  affine.for %i = 5 to 5 {
    "use"(%i) : (index) -> ()
  }
  affine.for %j = 0 to 2 {
    "use"(%j) : (index) -> ()
  }
  return
}
