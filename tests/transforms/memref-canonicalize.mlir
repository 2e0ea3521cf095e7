// memref folds against mlir-opt-22: dim of static extents and allocation
// sizes, cast round trips, identity reshapes.
// RUN: diff <(silica opt --canonicalize %s) <(mlir-opt-22 --canonicalize %s)
// RUN: silica opt --canonicalize %s | FileCheck %s

// CHECK-LABEL: func.func @dims
// CHECK: return %c4, %arg0, %alloc
// CHECK-LABEL: func.func @reshapes
// CHECK-NEXT: return %arg0, %arg1
func.func @dims(%n: index) -> (index, index, memref<4x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<4x?xf32>
  %d0 = memref.dim %a, %c0 : memref<4x?xf32>
  %d1 = memref.dim %a, %c1 : memref<4x?xf32>
  %c = memref.cast %a : memref<4x?xf32> to memref<?x?xf32>
  %b = memref.cast %c : memref<?x?xf32> to memref<4x?xf32>
  return %d0, %d1, %b : index, index, memref<4x?xf32>
}
func.func @reshapes(%m: memref<5xi8>, %k: memref<1x1xi8>) -> (memref<5xi8>, memref<1x1xi8>) {
  %c = memref.collapse_shape %m [[0]] : memref<5xi8> into memref<5xi8>
  %x = memref.collapse_shape %k [] : memref<1x1xi8> into memref<i8>
  %y = memref.expand_shape %x [] output_shape [1, 1] : memref<i8> into memref<1x1xi8>
  return %c, %y : memref<5xi8>, memref<1x1xi8>
}
