// affine-loop-unroll-jam agrees with mlir-opt-22: the first loop of a
// function is unrolled and its copies jammed into the loops it contains,
// with cleanup loops, iteration arguments of nested loops duplicated,
// reductions of the jammed loop combined after it; loops whose inner
// bounds depend on them, or whose trip count is below the factor, are left
// alone. FileCheck pins the jammed shape.
// RUN: diff <(silica opt -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll-jam))' %s) <(mlir-opt-22 -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll-jam))' %s)
// RUN: diff <(silica opt -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=2}))' %s) <(mlir-opt-22 -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=2}))' %s)
// RUN: diff <(silica opt -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=3}))' %s) <(mlir-opt-22 -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=3}))' %s)
// RUN: diff <(silica opt -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=1}))' %s) <(mlir-opt-22 -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=1}))' %s)
// RUN: silica opt -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=2}))' %s | FileCheck %s

// Statements before, inside and after the inner loop each get their copy
// for iteration i + 1 right after them; seven iterations leave one for a
// promoted cleanup.
// CHECK-LABEL: func.func @imperfect
// CHECK-NEXT:    %[[C6:.*]] = arith.constant 6 : index
// CHECK-NEXT:    affine.for %[[I:.*]] = 0 to 6 step 2 {
// CHECK-NEXT:      "before"(%[[I]])
// CHECK-NEXT:      %[[I1:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK-NEXT:      "before"(%[[I1]])
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 5 {
// CHECK-NEXT:        "inner"(%[[I]], %[[J]])
// CHECK-NEXT:        %[[I2:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK-NEXT:        "inner"(%[[I2]], %[[J]])
// CHECK-NEXT:      }
// CHECK-NEXT:      "after"(%[[I]])
// CHECK-NEXT:      %[[I3:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK-NEXT:      "after"(%[[I3]])
// CHECK-NEXT:    }
// CHECK-NEXT:    "before"(%[[C6]])
// CHECK-NEXT:    affine.for %[[J2:.*]] = 0 to 5 {
// CHECK-NEXT:      "inner"(%[[C6]], %[[J2]])
// CHECK-NEXT:    }
// CHECK-NEXT:    "after"(%[[C6]])
func.func @imperfect() {
  affine.for %i = 0 to 7 {
    "before"(%i) : (index) -> ()
    affine.for %j = 0 to 5 {
      "inner"(%i, %j) : (index, index) -> ()
    }
    "after"(%i) : (index) -> ()
  }
  return
}

// -----

// A symbolic trip count: the jammed loop and a cleanup loop.
func.func @symbolic(%n: index, %A: memref<?x8xf32>) {
  affine.for %i = 1 to %n {
    affine.for %j = 0 to 8 {
      %v = affine.load %A[%i - 1, %j] : memref<?x8xf32>
      affine.store %v, %A[%i, %j] : memref<?x8xf32>
    }
  }
  return
}

// -----

// The inner loop's reduction gets one accumulator per jammed iteration;
// the outer loop's sum is a reduction too, combined after the loop.
// CHECK-LABEL: func.func @reductions
// CHECK:         %[[R:.*]]:2 = affine.for {{.*}} step 2 iter_args(%[[S0:.*]] = %[[Z:.*]], %[[S1:.*]] = %[[Z]]) -> (i32, i32) {
// CHECK:           %[[T:.*]]:2 = affine.for {{.*}} iter_args(%{{.*}} = %[[Z]], %{{.*}} = %[[Z]]) -> (i32, i32) {
// CHECK:           arith.addi %[[S0]], %[[T]]#0
// CHECK:           arith.addi %[[S1]], %[[T]]#1
// CHECK:         %[[SUM:.*]] = arith.addi %[[R]]#0, %[[R]]#1 : i32
// CHECK:         return %[[SUM]] : i32
func.func @reductions(%A: memref<6x5xi32>, %zero: i32) -> i32 {
  %s = affine.for %i = 0 to 6 iter_args(%acc = %zero) -> i32 {
    %t = affine.for %j = 0 to 5 iter_args(%r = %zero) -> i32 {
      %x = affine.load %A[%i, %j] : memref<6x5xi32>
      %y = arith.addi %r, %x : i32
      affine.yield %y : i32
    }
    %n = arith.addi %acc, %t : i32
    affine.yield %n : i32
  }
  return %s : i32
}

// -----

// Not jammed: an inner bound depends on the outer loop.
func.func @dependent_inner_bound(%A: memref<8x8xf32>, %v: f32) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      affine.store %v, %A[%i, %j] : memref<8x8xf32>
    }
  }
  return
}

// -----

// Not jammed: two iterations are fewer than three; the loop is not the
// function's first op in the second function.
func.func @short(%A: memref<2xf32>, %v: f32) {
  affine.for %i = 0 to 2 {
    affine.store %v, %A[%i] : memref<2xf32>
  }
  return
}

func.func @not_first(%A: memref<9xf32>, %v: f32) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 9 {
    affine.store %c, %A[%i] : memref<9xf32>
  }
  return
}

// -----

// A loop of one iteration is promoted by factor 1; an if in the body is
// copied whole.
func.func @single_and_if(%n: index, %A: memref<?xf32>, %v: f32) {
  affine.for %i = 3 to 4 {
    affine.if affine_set<(d0)[s0] : (s0 - d0 - 1 >= 0)>(%i)[%n] {
      affine.store %v, %A[%i] : memref<?xf32>
    }
  }
  return
}
