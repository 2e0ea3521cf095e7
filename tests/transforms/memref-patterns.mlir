// memref canonicalization patterns against mlir-opt-22: constant
// allocation sizes become static (with a cast back), the size of a
// memref.reshape result is loaded from its shape (after the reshape, with
// an index_cast for i32 shapes; not for indices from inside a loop),
// constant subview offsets/sizes/strides become static with the result
// type inferred again (rank-reduced dims kept), and subviews of casts
// that only lose information view the cast's source.
// RUN: diff <(silica opt --canonicalize --split-input-file %s) <(mlir-opt-22 --canonicalize --split-input-file %s)
// RUN: silica opt --canonicalize --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @alloc_sizes
// CHECK: memref.alloc(%arg0) {alignment = 64 : i64} : memref<8x?xf32>
// CHECK: memref.alloca()[%arg0] : memref<3xf32, strided<[1], offset: ?>>
func.func @alloc_sizes(%n: index) -> (memref<?x?xf32>, memref<?xf32, strided<[1], offset: ?>>) {
  %c8 = arith.constant 8 : index
  %c3 = arith.constant 3 : index
  %a = memref.alloc(%c8, %n) {alignment = 64 : i64} : memref<?x?xf32>
  %b = memref.alloca(%c3)[%n] : memref<?xf32, strided<[1], offset: ?>>
  return %a, %b : memref<?x?xf32>, memref<?xf32, strided<[1], offset: ?>>
}

// -----

// CHECK-LABEL: func.func @dim_of_reshape
// CHECK: memref.load %arg1[%c1] : memref<?xi32>
// CHECK: arith.index_cast
// CHECK: memref.load %arg2[%arg3] : memref<?xindex>
func.func @dim_of_reshape(%m: memref<*xf32>, %s: memref<?xi32>, %t: memref<?xindex>, %i: index) -> (index, index) {
  %c1 = arith.constant 1 : index
  %r = memref.reshape %m(%s) : (memref<*xf32>, memref<?xi32>) -> memref<*xf32>
  %d = memref.dim %r, %c1 : memref<*xf32>
  %q = memref.reshape %m(%t) : (memref<*xf32>, memref<?xindex>) -> memref<*xf32>
  %e = memref.dim %q, %i : memref<*xf32>
  return %d, %e : index, index
}

// -----

// CHECK-LABEL: func.func @dim_of_reshape_in_loop
// CHECK: memref.dim
func.func @dim_of_reshape_in_loop(%m: memref<*xf32>, %t: memref<?xindex>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %q = memref.reshape %m(%t) : (memref<*xf32>, memref<?xindex>) -> memref<*xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %c1) -> (index) {
    %e = memref.dim %q, %i : memref<*xf32>
    %p = arith.muli %a, %e : index
    scf.yield %p : index
  }
  return %r : index
}

// -----

// CHECK-LABEL: func.func @subview_constants
// CHECK: memref.subview %arg0[2, %arg1, 0] [3, 1, %arg2] [1, 1, 2]
// CHECK: memref.cast
func.func @subview_constants(%m: memref<?x?x?xf32>, %i: index, %n: index) -> memref<?x?xf32, strided<[?, ?], offset: ?>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %v = memref.subview %m[%c2, %i, %c0] [%c3, 1, %n] [%c1, %c1, %c2] : memref<?x?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  return %v : memref<?x?xf32, strided<[?, ?], offset: ?>>
}

// -----

// CHECK-LABEL: func.func @subview_of_cast
// CHECK: memref.subview %arg0[0, %arg1] [1, 8] [1, 1] : memref<4x16xf32> to memref<8xf32, strided<[1], offset: ?>>
func.func @subview_of_cast(%m: memref<4x16xf32>, %i: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %c = memref.cast %m : memref<4x16xf32> to memref<?x?xf32>
  %v = memref.subview %c[0, %i] [1, 8] [1, 1] : memref<?x?xf32> to memref<8xf32, strided<[1], offset: ?>>
  return %v : memref<8xf32, strided<[1], offset: ?>>
}
