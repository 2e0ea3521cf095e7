// Canonicalization of affine loop bounds, conditions and min/max against
// mlir-opt-22: constant bounds folded, bound maps composed and
// canonicalized, results another result dominates (by the constant
// ranges of loop indices) dropped, zero-trip loops with results folded,
// floordiv/mod over bounded indices simplified, affine.if sets and
// affine.parallel bounds canonicalized, nested min/max merged, a
// single-result min/max turned into affine.apply, loads from constant
// globals folded, prefetch maps composed.
// RUN: diff <(silica opt --canonicalize --allow-unregistered-dialect --split-input-file %s) <(mlir-opt-22 --canonicalize --allow-unregistered-dialect --split-input-file %s)
// RUN: silica opt --canonicalize --allow-unregistered-dialect --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @for_bounds
// CHECK: affine.for %{{.*}} = 4 to 9
// CHECK: affine.for %{{.*}} = 2 to 12
// CHECK: affine.for %{{.*}} = #{{.*}}()[%arg0] to min #{{.*}}()[%arg0]
// CHECK-NOT: affine.apply
func.func @for_bounds(%n: index) {
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  affine.for %i = max affine_map<(d0, d1) -> (d0 + d1, 3)>(%c2, %c2) to min affine_map<(d0) -> (d0 + 3, 20)>(%c6) {
    "use"(%i) : (index) -> ()
  }
  affine.for %i = %c2 to affine_map<(d0) -> (d0 * 2)>(%c6) {
    "use"(%i) : (index) -> ()
  }
  %a = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%n]
  affine.for %i = %a to min affine_map<(d0, d1) -> (d0 + 8, d1 * 4)>(%a, %n) {
    "use"(%i) : (index) -> ()
  }
  return
}

// -----

// CHECK-LABEL: func.func @ranges
// CHECK: affine.for %[[I:.*]] = 0 to 16
// CHECK: affine.for %{{.*}} = 0 to min #{{.*}}(%[[I]])
// CHECK: "use"(%[[I]], %c0
func.func @ranges() {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to min affine_map<(d0) -> (d0 + 4, 64, d0 * 2)>(%i) {
      %q = affine.apply affine_map<(d0) -> (d0 floordiv 16)>(%i)
      %r = affine.apply affine_map<(d0) -> (d0 mod 16)>(%i)
      "use"(%r, %q) : (index, index) -> ()
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @zero_trip
// CHECK-NEXT: return %arg0
func.func @zero_trip(%x: index) -> index {
  %r = affine.for %i = 5 to 5 iter_args(%a = %x) -> (index) {
    %s = arith.addi %a, %i : index
    affine.yield %s : index
  }
  return %r : index
}

// -----

// CHECK-LABEL: func.func @conditions
// CHECK: affine.if #{{.*}}(%{{.*}})[%arg0]
func.func @conditions(%n: index, %m: index) {
  %c7 = arith.constant 7 : index
  affine.for %i = 0 to 10 {
    %a = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
    affine.if affine_set<(d0, d1, d2)[s0] : (d1 - d0 >= 0, d2 - 3 == 0)>(%c7, %a, %n)[%m] {
      "use"() : () -> ()
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @parallel
// CHECK: affine.parallel (%{{.*}}) = (0) to (8)
func.func @parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  affine.parallel (%i) = (%c0) to (%c8) {
    %a = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    affine.parallel (%j) = (%a) to (%n) {
      "use"(%j) : (index) -> ()
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @min_max
// CHECK: affine.min #{{.*}}()[%arg1, %arg0]
// CHECK: affine.max #{{.*}}()[%arg2, %arg0]
// CHECK: affine.apply
func.func @min_max(%a: index, %b: index, %c: index) -> (index, index, index) {
  %0 = affine.min affine_map<()[s0] -> (s0 * 2, 100)>()[%a]
  %1 = affine.min affine_map<()[s0, s1] -> (s0 + 1, s1)>()[%b, %0]
  %2 = affine.max affine_map<()[s0] -> (s0, 3)>()[%a]
  %3 = affine.max affine_map<(d0)[s0] -> (d0, s0 - 4)>(%2)[%c]
  %4 = affine.max affine_map<()[s0] -> (s0 * 3)>()[%c]
  return %1, %3, %4 : index, index, index
}

// -----

// CHECK-LABEL: func.func @constant_global
// CHECK-DAG: arith.constant 3.000000e+00 : f32
// CHECK-DAG: arith.constant 7 : i32
// CHECK-NOT: affine.load
memref.global "private" constant @table : memref<2x3xf32> = dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]>
memref.global "private" constant @splat : memref<4xi32> = dense<7>
func.func @constant_global(%i: index) -> (f32, i32) {
  %t = memref.get_global @table : memref<2x3xf32>
  %s = memref.get_global @splat : memref<4xi32>
  %a = affine.load %t[1, 0] : memref<2x3xf32>
  %b = affine.load %s[%i] : memref<4xi32>
  return %a, %b : f32, i32
}

// -----

// CHECK-LABEL: func.func @prefetch
// CHECK: affine.prefetch %arg0[%{{.*}} * 4 + 1], write, locality<1>, data
func.func @prefetch(%m: memref<64xf32>) {
  affine.for %i = 0 to 15 {
    %a = affine.apply affine_map<(d0) -> (d0 * 4 + 1)>(%i)
    affine.prefetch %m[%a], write, locality<1>, data : memref<64xf32>
  }
  return
}
