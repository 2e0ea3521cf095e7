// expand-strided-metadata on subviews (static and dynamic offsets,
// sizes, strides), collapse and expand shapes, and the metadata of
// allocations and reinterpret_casts, then lowered to llvm, as mlir-opt-22.
// RUN: diff <(silica opt --expand-strided-metadata %s) <(mlir-opt-22 --expand-strided-metadata %s)
// RUN: diff <(silica opt --expand-strided-metadata --lower-affine --convert-to-llvm --reconcile-unrealized-casts %s) <(mlir-opt-22 --expand-strided-metadata --lower-affine --convert-to-llvm --reconcile-unrealized-casts %s)
// RUN: silica opt --expand-strided-metadata %s | FileCheck %s
// CHECK-DAG: affine_map<()[s0, s1] -> ((s0 floordiv 10) * s1)>
// CHECK-LABEL: func.func @collapse
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}, %{{.*}}, 42], strides: [%{{.*}}, 42, 1]
// CHECK-LABEL: func.func @alloc_metadata
// CHECK: memref.reinterpret_cast %alloc to offset: [0], sizes: [], strides: [] : memref<?x4x?xi16> to memref<i16>
// CHECK-LABEL: func.func @reinterpret_metadata
// CHECK: return %base_buffer, %arg1, %arg2, %arg3, %arg4, %arg5
// CHECK-LABEL: func.func @pointer_of_view
// CHECK: memref.extract_aligned_pointer_as_index %base_buffer : memref<f32> -> index
func.func @sub(%m: memref<8x8xf32>, %i: index, %j: index) -> memref<4x4xf32, strided<[8, 1], offset: ?>> {
  %s = memref.subview %m[%i, %j][4, 4][1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
  return %s : memref<4x4xf32, strided<[8, 1], offset: ?>>
}
func.func @sub2(%m: memref<?x?xf32>, %i: index, %n: index) -> memref<?x2xf32, strided<[?, 3], offset: ?>> {
  %s = memref.subview %m[%i, 1][%n, 2][2, 3] : memref<?x?xf32> to memref<?x2xf32, strided<[?, 3], offset: ?>>
  return %s : memref<?x2xf32, strided<[?, 3], offset: ?>>
}
func.func @collapse(%m: memref<?x?x4x?x6x7xi32>) -> memref<?x?x42xi32> {
  %c = memref.collapse_shape %m [[0], [1, 2, 3], [4, 5]] : memref<?x?x4x?x6x7xi32> into memref<?x?x42xi32>
  return %c : memref<?x?x42xi32>
}
func.func @expand(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>, %a: index, %b: index) -> memref<?x7x8x9x10x2x?x3xf32, strided<[?, ?, ?, ?, ?, ?, ?, ?], offset: ?>> {
  %e = memref.expand_shape %m [[0, 1, 2, 3], [4, 5, 6, 7]] output_shape [%a, 7, 8, 9, 10, 2, %b, 3] : memref<?x?xf32, strided<[?, ?], offset: ?>> into memref<?x7x8x9x10x2x?x3xf32, strided<[?, ?, ?, ?, ?, ?, ?, ?], offset: ?>>
  return %e : memref<?x7x8x9x10x2x?x3xf32, strided<[?, ?, ?, ?, ?, ?, ?, ?], offset: ?>>
}
func.func @alloc_metadata(%n: index, %k: index) -> (memref<i16>, index, index, index, index, index, index, index) {
  %a = memref.alloc(%n, %k) : memref<?x4x?xi16>
  %base, %offset, %sizes:3, %strides:3 = memref.extract_strided_metadata %a : memref<?x4x?xi16> -> memref<i16>, index, index, index, index, index, index, index
  return %base, %offset, %sizes#0, %sizes#1, %sizes#2, %strides#0, %strides#1, %strides#2 : memref<i16>, index, index, index, index, index, index, index
}
func.func @reinterpret_metadata(%m: memref<?x?xi32, strided<[?, ?], offset: ?>>, %o: index, %s0: index, %s1: index, %t0: index, %t1: index) -> (memref<i32>, index, index, index, index, index) {
  %r = memref.reinterpret_cast %m to offset: [%o], sizes: [%s0, %s1], strides: [%t0, %t1] : memref<?x?xi32, strided<[?, ?], offset: ?>> to memref<?x?xi32, strided<[?, ?], offset: ?>>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %r : memref<?x?xi32, strided<[?, ?], offset: ?>> -> memref<i32>, index, index, index, index, index
  return %base, %offset, %sizes#0, %sizes#1, %strides#0, %strides#1 : memref<i32>, index, index, index, index, index
}
func.func @pointer_of_view(%m: memref<4x4xf32>) -> index {
  %c = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %p = memref.extract_aligned_pointer_as_index %c : memref<16xf32> -> index
  return %p : index
}
