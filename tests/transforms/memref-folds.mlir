// memref folds and patterns against mlir-opt-22 (canonicalize): rank of a
// ranked memref, empty and self copies, composed reshapes, zero strides
// kept dynamic, reinterpret_cast through earlier views and of its own
// metadata, constant metadata, memory-space casts, transposes, alignment
// assumptions and views.
// RUN: diff <(silica opt --canonicalize -split-input-file %s) <(mlir-opt-22 --canonicalize -split-input-file %s)
// RUN: silica opt --canonicalize -split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @rank_and_copies(
// CHECK-NEXT:    %[[C:.*]] = arith.constant 2 : index
// CHECK-NEXT:    return %[[C]]
func.func @rank_and_copies(%m: memref<?x4xf32>, %e: memref<0x4xf32>) -> index {
  %r = memref.rank %m : memref<?x4xf32>
  memref.copy %m, %m : memref<?x4xf32> to memref<?x4xf32>
  memref.copy %e, %m : memref<0x4xf32> to memref<?x4xf32>
  return %r : index
}

// -----

// CHECK-LABEL: func.func @reshapes(
// CHECK-NEXT:    memref.collapse_shape %arg0 {{\[}}[0, 1, 2, 3]]
// CHECK-NEXT:    memref.expand_shape %arg1 {{\[}}[0, 1, 2]] output_shape [2, 3, 4]
func.func @reshapes(%a: memref<2x3x4x5xf32>, %b: memref<24xf32>) -> (memref<120xf32>, memref<2x3x4xf32>) {
  %c = memref.collapse_shape %a [[0, 1], [2, 3]] : memref<2x3x4x5xf32> into memref<6x20xf32>
  %d = memref.collapse_shape %c [[0, 1]] : memref<6x20xf32> into memref<120xf32>
  %e = memref.expand_shape %b [[0, 1]] output_shape [6, 4] : memref<24xf32> into memref<6x4xf32>
  %f = memref.expand_shape %e [[0, 1], [2]] output_shape [2, 3, 4] : memref<6x4xf32> into memref<2x3x4xf32>
  return %d, %f : memref<120xf32>, memref<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @reinterpret(
// CHECK:         memref.reinterpret_cast %arg0 to offset: [0], sizes: [4, 4], strides: [4, 1]
// CHECK-NOT:     memref.subview
func.func @reinterpret(%m: memref<64xf32>, %n: index) -> memref<?x?xf32, strided<[?, ?], offset: ?>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = memref.subview %m[0] [%n] [1] : memref<64xf32> to memref<?xf32, strided<[1]>>
  %r = memref.reinterpret_cast %s to offset: [%c0], sizes: [%c4, %c4], strides: [%c4, %c1] : memref<?xf32, strided<[1]>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  return %r : memref<?x?xf32, strided<[?, ?], offset: ?>>
}

// -----

// CHECK-LABEL: func.func @metadata(
// CHECK:         %[[CAST:.*]] = memref.cast %arg0 : memref<4x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK:         return %[[CAST]], %c4
func.func @metadata(%m: memref<4x?xf32>) -> (memref<?x?xf32, strided<[?, ?], offset: ?>>, index) {
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<4x?xf32> -> memref<f32>, index, index, index, index, index
  %r = memref.reinterpret_cast %base to offset: [%offset], sizes: [%sizes#0, %sizes#1], strides: [%strides#0, %strides#1] : memref<f32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  return %r, %sizes#0 : memref<?x?xf32, strided<[?, ?], offset: ?>>, index
}

// -----

// CHECK-LABEL: func.func @casts_and_views(
// CHECK-NEXT:    memref.memory_space_cast %arg0 : memref<16xi8> to memref<16xi8, 2>
// CHECK-NEXT:    memref.transpose %arg1 (d0, d1, d2) -> (d2, d0, d1)
// CHECK-NEXT:    memref.assume_alignment %arg0, 8
// CHECK-NEXT:    return
func.func @casts_and_views(%m: memref<16xi8>, %t: memref<2x3x4xf32>) -> (memref<16xi8, 2>, memref<4x2x3xf32, strided<[1, 12, 4]>>, memref<16xi8>, memref<16xi8>, memref<2x3x4xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.memory_space_cast %m : memref<16xi8> to memref<16xi8, 1>
  %b = memref.memory_space_cast %a : memref<16xi8, 1> to memref<16xi8, 2>
  %t1 = memref.transpose %t (d0, d1, d2) -> (d1, d0, d2) : memref<2x3x4xf32> to memref<3x2x4xf32, strided<[4, 12, 1]>>
  %t2 = memref.transpose %t1 (d0, d1, d2) -> (d2, d1, d0) : memref<3x2x4xf32, strided<[4, 12, 1]>> to memref<4x2x3xf32, strided<[1, 12, 4]>>
  %i1 = memref.transpose %t (d0, d1, d2) -> (d0, d1, d2) : memref<2x3x4xf32> to memref<2x3x4xf32>
  %x = memref.assume_alignment %m, 8 : memref<16xi8>
  %y = memref.assume_alignment %x, 8 : memref<16xi8>
  %v = memref.view %m[%c0][] : memref<16xi8> to memref<16xi8>
  return %b, %t2, %y, %v, %i1 : memref<16xi8, 2>, memref<4x2x3xf32, strided<[1, 12, 4]>>, memref<16xi8>, memref<16xi8>, memref<2x3x4xf32>
}

// -----

// Accesses through a memref.cast use the cast's source, and a dim of a
// cast whose source knows the extent is a constant.
// CHECK-LABEL: func.func @through_casts(
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    memref.load %arg0[%arg1] : memref<8xf32>
// CHECK-NEXT:    memref.store %{{.*}}, %arg0[%arg1] : memref<8xf32>
// CHECK-NEXT:    memref.atomic_rmw addf %{{.*}}, %arg0[%arg1] : (f32, memref<8xf32>) -> f32
// CHECK-NEXT:    return %[[C8]]
func.func @through_casts(%m: memref<8xf32>, %i: index) -> index {
  %c0 = arith.constant 0 : index
  %cast = memref.cast %m : memref<8xf32> to memref<?xf32>
  %v = memref.load %cast[%i] : memref<?xf32>
  memref.store %v, %cast[%i] : memref<?xf32>
  %r = memref.atomic_rmw addf %v, %cast[%i] : (f32, memref<?xf32>) -> f32
  %d = memref.dim %cast, %c0 : memref<?xf32>
  return %d : index
}

// -----

// CHECK-LABEL: func.func @dead_else(
// CHECK:         affine.if
// CHECK-NEXT:      memref.store
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @dead_else(%m: memref<8xf32>, %i: index, %f: f32) {
  affine.if affine_set<(d0) : (d0 - 2 >= 0)>(%i) {
    memref.store %f, %m[%i] : memref<8xf32>
  } else {
  }
  return
}

// -----

// A view with constant sizes takes them into its type, cast back.
// CHECK-LABEL: func.func @view_sizes(
// CHECK:         %[[V:.*]] = memref.view %arg0[%c0][%arg1] : memref<2048xi8> to memref<?x4xf32>
// CHECK-NEXT:    %[[C:.*]] = memref.cast %[[V]] : memref<?x4xf32> to memref<?x?xf32>
func.func @view_sizes(%m: memref<2048xi8>, %n: index) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %v = memref.view %m[%c0][%n, %c4] : memref<2048xi8> to memref<?x?xf32>
  return %v : memref<?x?xf32>
}
