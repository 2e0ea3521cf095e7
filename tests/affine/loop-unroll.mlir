// affine-loop-unroll in each of its modes agrees with mlir-opt-22 on loops
// with constant and symbolic bounds, steps, iteration arguments, nests,
// min/max bounds and empty bodies; FileCheck pins what the unrolled loops
// look like.
// RUN: diff <(silica opt -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll))' %s) <(mlir-opt-22 -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll))' %s)
// RUN: diff <(silica opt -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' %s) <(mlir-opt-22 -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' %s)
// RUN: diff <(silica opt -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=-1}))' %s) <(mlir-opt-22 -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=-1}))' %s)
// RUN: diff <(silica opt -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=-1 unroll-full-threshold=3}))' %s) <(mlir-opt-22 -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=-1 unroll-full-threshold=3}))' %s)
// RUN: diff <(silica opt -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=2 unroll-num-reps=2}))' %s) <(mlir-opt-22 -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=2 unroll-num-reps=2}))' %s)
// RUN: diff <(silica opt -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=8 unroll-up-to-factor=true}))' %s) <(mlir-opt-22 -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=8 unroll-up-to-factor=true}))' %s)
// RUN: diff <(silica opt -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=3 cleanup-unroll=true}))' %s) <(mlir-opt-22 -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=3 cleanup-unroll=true}))' %s)
// RUN: silica opt -allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' %s | FileCheck %s

// Ten iterations by three: three unrolled steps, then one iteration left
// over, promoted with its induction variable as a constant at the top.
// CHECK-LABEL: func.func @constant_with_remainder
// CHECK-NEXT:    %[[C9:.*]] = arith.constant 9 : index
// CHECK-NEXT:    affine.for %[[I:.*]] = 0 to 9 step 3 {
// CHECK-NEXT:      "use"(%[[I]])
// CHECK-NEXT:      %[[I1:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK-NEXT:      "use"(%[[I1]])
// CHECK-NEXT:      %[[I2:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK-NEXT:      "use"(%[[I2]])
// CHECK-NEXT:    }
// CHECK-NEXT:    "use"(%[[C9]])
// CHECK-NEXT:    return
func.func @constant_with_remainder() {
  affine.for %i = 0 to 10 {
    "use"(%i) : (index) -> ()
  }
  return
}

// -----

// A symbolic trip count: the unrolled loop stops at the last whole step,
// the cleanup loop runs from there to the bound.
// CHECK-LABEL: func.func @symbolic_bound
// CHECK:         affine.for %{{.*}} = 2 to #{{.*}}()[%[[N:.*]]] step 6 {
// CHECK-COUNT-3:   "use"
// CHECK:         }
// CHECK-NEXT:    affine.for %{{.*}} = #{{.*}}()[%[[N]]] to %[[N]] step 2 {
// CHECK-NEXT:      "use"
// CHECK-NEXT:    }
func.func @symbolic_bound(%n: index) {
  affine.for %i = 2 to %n step 2 {
    "use"(%i) : (index) -> ()
  }
  return
}

// -----

// Iteration arguments thread through the copies; the cleanup loop starts
// from the unrolled loop's results and yields the function's results.
// CHECK-LABEL: func.func @iter_args
// CHECK:         %[[R:.*]]:2 = affine.for {{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) -> (f32, f32) {
// CHECK:           %[[A1:.*]] = arith.addf %[[A]], %[[A]]
// CHECK:           %[[A2:.*]] = arith.addf %[[A1]], %[[A1]]
// CHECK:           %[[A3:.*]] = arith.addf %[[A2]], %[[A2]]
// CHECK:           affine.yield %[[A3]], %{{.*}} : f32, f32
// CHECK:         %[[S:.*]]:2 = affine.for {{.*}} iter_args(%{{.*}} = %[[R]]#0, %{{.*}} = %[[R]]#1) -> (f32, f32) {
// CHECK:         return %[[S]]#0, %[[S]]#1
func.func @iter_args(%x: f32, %y: f32, %n: index) -> (f32, f32) {
  %r:2 = affine.for %i = 0 to %n iter_args(%a = %x, %b = %y) -> (f32, f32) {
    %a2 = arith.addf %a, %a : f32
    %b2 = arith.mulf %b, %x : f32
    affine.yield %a2, %b2 : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}

// -----

// Only innermost loops unroll unless a full unroll threshold is given.
func.func @nest(%A: memref<4x3xf32>, %v: f32) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 3 {
      affine.store %v, %A[%i, %j] : memref<4x3xf32>
    }
    "between"(%i) : (index) -> ()
    affine.for %k = 0 to 2 {
      %w = affine.load %A[%i, %k + 1] : memref<4x3xf32>
      "use"(%w) : (f32) -> ()
    }
  }
  return
}

// -----

// Nothing to unroll: an empty body, a minimum upper bound whose trip
// count the factor may not divide, a single iteration. (Loops that never
// run are in loop-unroll-zero-trip.mlir: mlir-opt-22 divides by zero on
// them with unroll-up-to-factor.)
func.func @left_alone(%m: index, %n: index) {
  affine.for %i = 0 to 7 {
  }
  affine.for %i = 0 to min affine_map<()[s0, s1] -> (s0, s1 + 7)>()[%m, %n] {
    "use"(%i) : (index) -> ()
  }
  affine.for %i = 3 to 4 {
    "use"(%i) : (index) -> ()
  }
  return
}

// -----

// A lower bound map of a symbol with a step; an affine.if in the body.
func.func @mapped_lower_bound(%n: index, %A: memref<?xf32>, %v: f32) {
  affine.for %i = affine_map<()[s0] -> (s0 * 2)>()[%n] to affine_map<()[s0] -> (s0 * 2 + 11)>()[%n] step 2 {
    affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0)>(%i)[%n] {
      affine.store %v, %A[%i] : memref<?xf32>
    }
  }
  return
}

// -----

// An inner bound that depends on the outer induction variable, and a
// reduction carried across both loops.
func.func @triangular(%A: memref<9x9xi32>) -> i32 {
  %zero = arith.constant 0 : i32
  %s = affine.for %i = 0 to 9 iter_args(%acc = %zero) -> i32 {
    %t = affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) iter_args(%r = %acc) -> i32 {
      %x = affine.load %A[%i, %j] : memref<9x9xi32>
      %y = arith.addi %r, %x : i32
      affine.yield %y : i32
    }
    affine.yield %t : i32
  }
  return %s : i32
}
