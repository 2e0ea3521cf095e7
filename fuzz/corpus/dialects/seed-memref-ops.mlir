// memref ops (allocation, access, dim/rank/cast/copy, globals) against
// mlir-opt-22, custom and generic, and back from generic.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: mlir-opt-22 --mlir-print-op-generic %s | silica opt | diff - <(mlir-opt-22 %s)

memref.global "private" constant @g : memref<2xf32> = dense<[1.0, 2.0]>
memref.global @h : memref<4xi32> = uninitialized
func.func @m(%n: index, %x: f32) {
  %a = memref.alloc(%n) : memref<?x4xf32>
  %b = memref.alloca() {alignment = 64 : i64} : memref<8xf32>
  %c = memref.load %a[%n, %n] : memref<?x4xf32>
  memref.store %x, %b[%n] : memref<8xf32>
  memref.store %c, %a[%n, %n] {nontemporal = true} : memref<?x4xf32>
  %d = memref.dim %a, %n : memref<?x4xf32>
  %e = memref.cast %a : memref<?x4xf32> to memref<?x?xf32>
  memref.copy %b, %b : memref<8xf32> to memref<8xf32>
  %g = memref.get_global @g : memref<2xf32>
  %r = memref.rank %a : memref<?x4xf32>
  memref.dealloc %a : memref<?x4xf32>
  return
}
func.func @s(%m: memref<16x16xf32>, %i: index, %d: memref<?xf32>) {
  %0 = memref.subview %m[0, %i] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[16, 1], offset: ?>>
  %1 = memref.reinterpret_cast %d to offset: [0], sizes: [%i, 4], strides: [4, 1] : memref<?xf32> to memref<?x4xf32>
  %2 = memref.collapse_shape %m [[0, 1]] : memref<16x16xf32> into memref<256xf32>
  %3 = memref.expand_shape %2 [[0, 1]] output_shape [16, 16] : memref<256xf32> into memref<16x16xf32>
  return
}
func.func @x(%m: memref<16x16xf32>, %s: memref<2xindex>, %b: memref<64xi8>, %i: index) {
  %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<16x16xf32> -> memref<f32>, index, index, index, index, index
  %r = memref.reshape %m(%s) : (memref<16x16xf32>, memref<2xindex>) -> memref<?x?xf32>
  %v = memref.view %b[%i][] : memref<64xi8> to memref<4x4xf32>
  %a = memref.assume_alignment %m, 16 : memref<16x16xf32>
  %c = memref.memory_space_cast %m : memref<16x16xf32> to memref<16x16xf32, 1>
  %p = memref.extract_aligned_pointer_as_index %m : memref<16x16xf32> -> index
  %n = memref.realloc %b : memref<64xi8> to memref<128xi8>
  return
}
