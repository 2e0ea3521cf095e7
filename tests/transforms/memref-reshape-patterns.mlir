// memref canonicalizations against mlir-opt-22: an expand_shape of a cast
// that only drops static information expands the cast's source when the
// constant output sizes make each group static exactly where the source is
// (not otherwise); a collapse_shape of such a cast collapses its source; a
// collapse of an expansion becomes one collapse, one expansion (sizes
// multiplied out) or a cast; allocations only stored into and freed are
// erased; trivial subviews become casts, constant subview sizes stay
// dynamic when static ones would run out of bounds, a no-op subview of a
// subview folds; copies use the sources of ranked casts; a dim of a
// reshape is loaded from the shape only where the index dominates it.
// RUN: diff <(silica opt --canonicalize --split-input-file %s) <(mlir-opt-22 --canonicalize --split-input-file %s)
// RUN: silica opt --canonicalize --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @expand_of_cast
// CHECK: memref.expand_shape %arg0 {{\[\[}}0, 1]] output_shape [2, 4] : memref<8xf32> into memref<2x4xf32>
// CHECK: memref.expand_shape %arg1 {{\[\[}}0, 1], [2]] output_shape [2, 4, %arg2] : memref<8x?xf32> into memref<2x4x?xf32>
// CHECK: memref.expand_shape %arg3 {{\[\[}}0, 1], [2]] output_shape [8, 1, 4] : memref<8x4xf32> into memref<8x1x4xf32>
// CHECK: memref.cast %{{.*}} : memref<8x1x4xf32> to memref<8x1x4xf32, strided<[?, ?, ?], offset: ?>>
func.func @expand_of_cast(%a: memref<8xf32>, %b: memref<8x?xf32>, %n: index, %c: memref<8x4xf32>)
    -> (memref<?x4xf32>, memref<?x?x?xf32>, memref<8x1x4xf32, strided<[?, ?, ?], offset: ?>>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = memref.cast %a : memref<8xf32> to memref<?xf32>
  %1 = memref.expand_shape %0 [[0, 1]] output_shape [%c2, 4] : memref<?xf32> into memref<?x4xf32>
  %2 = memref.cast %b : memref<8x?xf32> to memref<?x?xf32>
  %3 = memref.expand_shape %2 [[0, 1], [2]] output_shape [%c2, %c4, %n] : memref<?x?xf32> into memref<?x?x?xf32>
  %4 = memref.cast %c : memref<8x4xf32> to memref<8x4xf32, strided<[?, ?], offset: ?>>
  %5 = memref.expand_shape %4 [[0, 1], [2]] output_shape [8, 1, 4]
      : memref<8x4xf32, strided<[?, ?], offset: ?>> into memref<8x1x4xf32, strided<[?, ?, ?], offset: ?>>
  return %1, %3, %5 : memref<?x4xf32>, memref<?x?x?xf32>, memref<8x1x4xf32, strided<[?, ?, ?], offset: ?>>
}

// -----

// CHECK-LABEL: func.func @expand_of_cast_kept
// CHECK-COUNT-3: memref.cast %arg
func.func @expand_of_cast_kept(%a: memref<8xf32>, %b: memref<8x?xf32>, %n: index, %m: memref<?x?xf32>)
    -> (memref<?x4xf32>, memref<?x4x?xf32>, memref<?x4x?xf32, strided<[?, ?, ?], offset: ?>>) {
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  // The static group would need a constant size.
  %0 = memref.cast %a : memref<8xf32> to memref<?xf32>
  %1 = memref.expand_shape %0 [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<?x4xf32>
  // A dynamic source dimension with constant sizes.
  %2 = memref.cast %b : memref<8x?xf32> to memref<?x?xf32>
  %3 = memref.expand_shape %2 [[0, 1], [2]] output_shape [%c2, 4, %c5] : memref<?x?xf32> into memref<?x4x?xf32>
  %4 = memref.cast %m : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %5 = memref.expand_shape %4 [[0, 1], [2]] output_shape [%c2, 4, %c5]
      : memref<?x?xf32, strided<[?, ?], offset: ?>> into memref<?x4x?xf32, strided<[?, ?, ?], offset: ?>>
  return %1, %3, %5 : memref<?x4xf32>, memref<?x4x?xf32>, memref<?x4x?xf32, strided<[?, ?, ?], offset: ?>>
}

// -----

// CHECK-LABEL: func.func @collapse_of_cast
// CHECK: memref.collapse_shape %arg0 {{\[\[}}0], [1, 2, 3]] : memref<?x512x1x1xf32> into memref<?x512xf32>
// CHECK: memref.collapse_shape %arg1 {{\[\[}}0, 1, 2], [3]] : memref<1x1x1x?xi64> into memref<1x?xi64>
func.func @collapse_of_cast(%a: memref<?x512x1x1xf32>, %b: memref<1x1x1x?xi64>) -> (memref<?x?xf32>, memref<?x?xi64>) {
  %0 = memref.cast %a : memref<?x512x1x1xf32> to memref<?x?x?x?xf32>
  %1 = memref.collapse_shape %0 [[0], [1, 2, 3]] : memref<?x?x?x?xf32> into memref<?x?xf32>
  %2 = memref.cast %b : memref<1x1x1x?xi64> to memref<1x1x?x?xi64>
  %3 = memref.collapse_shape %2 [[0, 1, 2], [3]] : memref<1x1x?x?xi64> into memref<?x?xi64>
  return %1, %3 : memref<?x?xf32>, memref<?x?xi64>
}

// -----

// CHECK-LABEL: func.func @collapse_of_expand
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[D:.*]] = arith.muli %arg2, %[[C32]] : index
// CHECK: memref.expand_shape %arg0 {{\[\[}}0, 1, 2]] output_shape [8, %arg1, %[[D]]]
// CHECK: memref.collapse_shape %arg3 {{\[\[}}0, 1]] : memref<4x8xf32> into memref<32xf32>
// CHECK: memref.cast %arg4 : memref<?xf32, strided<[1]>, 3> to memref<?xf32, 3>
func.func @collapse_of_expand(%a: memref<?xf16>, %d2: index, %d3: index, %b: memref<4x8xf32>,
                              %c: memref<?xf32, strided<[1]>, 3>, %n: index)
    -> (memref<8x?x?xf16>, memref<32xf32>, memref<?xf32, 3>) {
  %0 = memref.expand_shape %a [[0, 1, 2, 3, 4]] output_shape [4, 2, %d2, %d3, 32] : memref<?xf16> into memref<4x2x?x?x32xf16>
  %1 = memref.collapse_shape %0 [[0, 1], [2], [3, 4]] : memref<4x2x?x?x32xf16> into memref<8x?x?xf16>
  %2 = memref.expand_shape %b [[0], [1, 2]] output_shape [4, 2, 4] : memref<4x8xf32> into memref<4x2x4xf32>
  %3 = memref.collapse_shape %2 [[0, 1, 2]] : memref<4x2x4xf32> into memref<32xf32>
  %4 = memref.expand_shape %c [[0, 1]] output_shape [1, %n] : memref<?xf32, strided<[1]>, 3> into memref<1x?xf32, 3>
  %5 = memref.collapse_shape %4 [[0, 1]] : memref<1x?xf32, 3> into memref<?xf32, 3>
  return %1, %3, %5 : memref<8x?x?xf16>, memref<32xf32>, memref<?xf32, 3>
}

// -----

// CHECK-LABEL: func.func @dead_allocations
// CHECK-NEXT: %[[A:.*]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT: memref.store %[[A]], %arg2[]
// CHECK-NEXT: return
func.func @dead_allocations(%src: memref<2xf32>, %v: f32, %box: memref<memref<2xf32>>) -> memref<2xf32> {
  %c1 = arith.constant 1 : index
  %0 = memref.realloc %src : memref<2xf32> to memref<4xf32>
  memref.store %v, %0[%c1] : memref<4xf32>
  %1 = memref.alloc() : memref<4xf32>
  memref.store %v, %1[%c1] : memref<4xf32>
  memref.dealloc %1 : memref<4xf32>
  %2 = memref.alloca() : memref<4xf32>
  memref.store %v, %2[%c1] : memref<4xf32>
  // Kept: the buffer is the stored value.
  %3 = memref.alloc() : memref<2xf32>
  memref.store %3, %box[] : memref<memref<2xf32>>
  return %src : memref<2xf32>
}

// -----

// CHECK-LABEL: func.func @subviews
// CHECK: memref.cast %arg0 : memref<20x42xf32> to memref<20x42xf32, strided<[42, 1]>>
// CHECK: memref.subview %arg1[2] [%c11] [1]
// CHECK: memref.subview %arg2[0, 0] [1, %arg4] [1, 1] : memref<8x?xf32> to memref<?xf32, strided<[1]>>
// CHECK: %[[S:.*]] = memref.subview %arg3[5] [%arg4] [1]
// CHECK-NOT: memref.subview
func.func @subviews(%a: memref<20x42xf32>, %b: memref<10xf32>, %c: memref<8x?xf32>,
                    %d: memref<?xf32, strided<[?], offset: ?>>, %n: index)
    -> (memref<20x42xf32, strided<[42, 1]>>, memref<?xf32, strided<[1], offset: 2>>,
        memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c11 = arith.constant 11 : index
  %0 = memref.subview %a[0, 0] [20, 42] [1, 1] : memref<20x42xf32> to memref<20x42xf32, strided<[42, 1]>>
  %1 = memref.subview %b[2] [%c11] [1] : memref<10xf32> to memref<?xf32, strided<[1], offset: 2>>
  %2 = memref.subview %c[%c0, %c0] [1, %n] [%c1, %c1] : memref<8x?xf32> to memref<?xf32, strided<[?], offset: ?>>
  %3 = memref.subview %d[5] [%n] [1] : memref<?xf32, strided<[?], offset: ?>> to memref<?xf32, strided<[?], offset: ?>>
  %4 = memref.subview %3[0] [%n] [1] : memref<?xf32, strided<[?], offset: ?>> to memref<?xf32, strided<[?], offset: ?>>
  return %0, %1, %2, %4 : memref<20x42xf32, strided<[42, 1]>>, memref<?xf32, strided<[1], offset: 2>>,
                          memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>
}

// -----

// CHECK-LABEL: func.func @copy_of_casts
// CHECK: %[[C:.*]] = memref.cast %arg1
// CHECK: memref.copy %arg0, %[[C]]
func.func @copy_of_casts(%a: memref<?xf32>, %b: memref<*xf32>) {
  %0 = memref.cast %a : memref<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  %1 = memref.cast %b : memref<*xf32> to memref<?xf32, strided<[?], offset: ?>>
  memref.copy %0, %1 : memref<?xf32, strided<[?], offset: ?>> to memref<?xf32, strided<[?], offset: ?>>
  return
}

// -----

// CHECK-LABEL: func.func @dim_of_reshape_dominance
// CHECK: memref.reshape
// CHECK-NEXT: %[[L:.*]] = memref.load %arg1[%arg2]
// CHECK: memref.dim
// CHECK: scf.for
// CHECK-NOT: memref.dim
func.func @dim_of_reshape_dominance(%m: memref<*xf32>, %s: memref<?xindex>, %i: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = memref.reshape %m(%s) : (memref<*xf32>, memref<?xindex>) -> memref<*xf32>
  // Defined after the reshape: kept.
  %j = arith.muli %i, %c4 : index
  %d = memref.dim %r, %j : memref<*xf32>
  // Defined in an enclosing region: loaded.
  %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> (index) {
    %e = memref.dim %r, %i : memref<*xf32>
    %t = arith.addi %acc, %e : index
    scf.yield %t : index
  }
  return %d, %sum : index, index
}
