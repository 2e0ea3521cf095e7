// Canonicalization of affine.delinearize_index / affine.linearize_index
// against mlir-opt-22: constant folding, constant basis values, unit
// basis elements, leading zeros, and the cancellations of a linearization
// with a delinearization (whole, common tail, spanning the last element,
// consecutive results), and weighted sums of delinearized results in maps.
// RUN: diff <(silica opt --canonicalize --split-input-file %s) <(mlir-opt-22 --canonicalize --split-input-file %s)
// RUN: silica opt --canonicalize --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @fold_constants
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[C105:.*]] = arith.constant 105 : index
// CHECK-DAG: %[[C50:.*]] = arith.constant 50 : index
// CHECK-NOT: affine.
// CHECK: return %[[C0]], %[[C5]], %[[C105]], %[[C50]]
func.func @fold_constants() -> (index, index, index, index) {
  %c47 = arith.constant 47 : index
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %d:3 = affine.delinearize_index %c47 into (7, 6) : index, index, index
  %l = affine.linearize_index [%c2, %c3, %c3] by (4, 7, 6) : index
  %s = affine.linearize_index [%c3, %c2] by (%c2, 16) : index
  return %d#1, %d#2, %l, %s : index, index, index, index
}

// -----

// CHECK-LABEL: func.func @negative
// CHECK-DAG: arith.constant -4 : index
// CHECK-DAG: arith.constant 1 : index
// CHECK-DAG: arith.constant 3 : index
func.func @negative() -> (index, index, index) {
  %c = arith.constant -41 : index
  %d:3 = affine.delinearize_index %c into (4, 3, 4) : index, index, index
  return %d#0, %d#1, %d#2 : index, index, index
}

// -----

// CHECK-LABEL: func.func @static_basis
// CHECK: affine.delinearize_index %arg0 into (5, 7)
// CHECK: affine.linearize_index [%arg0, %arg1] by (%arg2, 9)
func.func @static_basis(%x: index, %y: index, %n: index) -> (index, index, index) {
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %d:2 = affine.delinearize_index %x into (%c5, %c7) : index, index
  %l = affine.linearize_index [%x, %y] by (%n, %c9) : index
  return %d#0, %d#1, %l : index, index, index
}

// -----

// CHECK-LABEL: func.func @units
// CHECK: %[[D:.*]]:3 = affine.delinearize_index %arg0 into (%arg1, 6)
// CHECK: affine.linearize_index disjoint [%arg0, %arg2] by (5, %arg1)
// CHECK: affine.linearize_index [%arg0, %arg2] by (5, 8)
func.func @units(%x: index, %n: index, %y: index) -> (index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %d:5 = affine.delinearize_index %x into (%n, 1, 6, 1) : index, index, index, index, index
  %l = affine.linearize_index disjoint [%x, %y, %y] by (5, 1, %n) : index
  %z = affine.linearize_index [%x, %c0, %y] by (5, 1, 8) : index
  return %d#0, %d#1, %d#2, %d#4, %l, %z : index, index, index, index, index, index
}

// -----

// CHECK-LABEL: func.func @single
// CHECK-NOT: affine.
// CHECK: return %arg0, %arg1, %arg0
func.func @single(%x: index, %y: index) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %d = affine.delinearize_index %x into (12) : index
  %l = affine.linearize_index [%y] by (%x) : index
  %z = affine.linearize_index [%c0, %x] by (3, 4) : index
  return %d, %l, %z : index, index, index
}

// -----

// CHECK-LABEL: func.func @delinearize_of_linearize
// CHECK: return %arg0, %arg1, %arg2
// CHECK-LABEL: func.func @delinearize_of_linearize_tail
// CHECK: affine.linearize_index disjoint [%arg0, %arg1] by (%arg3, 3)
// CHECK: affine.delinearize_index %{{.*}} into (6)
// CHECK-LABEL: func.func @delinearize_spanning_last
// CHECK: affine.delinearize_index %arg2 into (4, 8)
func.func @delinearize_of_linearize(%a: index, %b: index, %c: index, %n: index) -> (index, index, index) {
  %l = affine.linearize_index disjoint [%a, %b, %c] by (%n, 3, 10) : index
  %d:3 = affine.delinearize_index %l into (3, 10) : index, index, index
  return %d#0, %d#1, %d#2 : index, index, index
}

func.func @delinearize_of_linearize_tail(%a: index, %b: index, %c: index, %n: index) -> (index, index, index) {
  %l = affine.linearize_index disjoint [%a, %b, %c] by (%n, 3, 10) : index
  %d:3 = affine.delinearize_index %l into (6, 10) : index, index, index
  return %d#0, %d#1, %d#2 : index, index, index
}

func.func @delinearize_spanning_last(%a: index, %b: index, %c: index) -> (index, index, index, index) {
  %l = affine.linearize_index disjoint [%a, %b, %c] by (3, 5, 32) : index
  %d:4 = affine.delinearize_index %l into (3, 5, 4, 8) : index, index, index, index
  return %d#0, %d#1, %d#2, %d#3 : index, index, index, index
}

// -----

// CHECK-LABEL: func.func @linearize_of_delinearize
// CHECK: return %arg0
// CHECK-LABEL: func.func @linearize_of_delinearize_head
// CHECK: affine.delinearize_index %arg0 into (20, 3)
// CHECK-LABEL: func.func @linearize_of_delinearize_dynamic
// CHECK: affine.apply
// CHECK-LABEL: func.func @linearize_of_delinearize_shared
// CHECK-COUNT-2: affine.delinearize_index
func.func @linearize_of_delinearize(%x: index, %n: index) -> index {
  %d:3 = affine.delinearize_index %x into (%n, 4, 5) : index, index, index
  %l = affine.linearize_index [%d#0, %d#1, %d#2] by (%n, 4, 5) : index
  return %l : index
}

func.func @linearize_of_delinearize_head(%x: index, %y: index) -> index {
  %d:3 = affine.delinearize_index %x into (4, 5, 3) : index, index, index
  %l = affine.linearize_index [%d#0, %d#1, %y] by (4, 5, 7) : index
  return %l : index
}

func.func @linearize_of_delinearize_dynamic(%x: index, %y: index, %n: index) -> index {
  %d:4 = affine.delinearize_index %x into (2, %n, 4, 3) : index, index, index, index
  %l = affine.linearize_index [%y, %d#1, %d#2, %y] by (6, %n, 4, 2) : index
  return %l : index
}

func.func @linearize_of_delinearize_shared(%x: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %d:3 = affine.delinearize_index %x into (4, 4, 2) : index, index, index
  %a = affine.linearize_index disjoint [%d#1, %d#2, %c0] by (4, 2, 3) : index
  %b = affine.linearize_index disjoint [%d#2, %d#0] by (2, 4) : index
  return %a, %b : index, index
}

// -----

// CHECK-LABEL: func.func @apply_of_delinearize
// CHECK: affine.apply #{{.*}}()[%arg1, %arg0]
func.func @apply_of_delinearize(%x: index, %y: index) -> (index, index) {
  %d:3 = affine.delinearize_index %x into (6, 7) : index, index, index
  %a = affine.apply affine_map<()[s0, s1, s2] -> (s2 + s1 * 7 + s0 * 42)>()[%d#0, %d#1, %d#2]
  %b = affine.apply affine_map<()[s0, s1, s2, s3] -> ((s2 + s1 * 7 + s0 * 42) * 3 + s3 + 1)>()[%d#0, %d#1, %d#2, %y]
  return %a, %b : index, index
}
