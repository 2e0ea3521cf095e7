// Common subexpressions across nested regions and the dominator tree,
// read-only ops without writes in between, against mlir-opt-22.
// RUN: diff <(silica opt --cse --split-input-file %s) <(mlir-opt-22 --cse --split-input-file %s)
// RUN: silica opt --cse --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @simple
// CHECK: %[[M:.*]] = arith.muli
// CHECK-NOT: arith.muli
// CHECK: arith.addi %[[M]], %[[M]]
func.func @simple(%a: i32, %b: i32) -> i32 {
  %0 = arith.muli %a, %b : i32
  %1 = arith.muli %a, %b : i32
  %2 = arith.addi %0, %1 : i32
  %3 = arith.muli %b, %a : i32
  %4 = arith.addi %2, %3 : i32
  return %4 : i32
}

// -----

// CHECK-LABEL: func.func @nested
func.func @nested(%a: index, %m: memref<8xindex>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %x = arith.addi %a, %c1 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %c1_0 = arith.constant 1 : index
    %y = arith.addi %a, %c1_0 : index
    %z = arith.addi %i, %y : index
    %w = arith.addi %i, %x : index
    memref.store %z, %m[%w] : memref<8xindex>
  }
  return
}

// -----

// CHECK-LABEL: func.func @loads
// CHECK: memref.load
// CHECK: memref.store
// CHECK: memref.load
// CHECK-NOT: memref.load
func.func @loads(%m: memref<8xi32>, %i: index, %v: i32) -> (i32, i32, i32, i32) {
  %0 = memref.load %m[%i] : memref<8xi32>
  %1 = memref.load %m[%i] : memref<8xi32>
  memref.store %v, %m[%i] : memref<8xi32>
  %2 = memref.load %m[%i] : memref<8xi32>
  %3 = memref.load %m[%i] : memref<8xi32>
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// CHECK-LABEL: func.func @blocks
func.func @blocks(%a: i32, %c: i1) -> i32 {
  %0 = arith.addi %a, %a : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %1 = arith.addi %a, %a : i32
  cf.br ^bb3(%1 : i32)
^bb2:
  %2 = arith.muli %a, %a : i32
  cf.br ^bb3(%2 : i32)
^bb3(%r: i32):
  %3 = arith.muli %a, %a : i32
  %4 = arith.addi %r, %3 : i32
  return %4 : i32
}
