// expand-strided-metadata on subviews (static and dynamic offsets,
// sizes, strides), then lowered to llvm, as mlir-opt-22.
// RUN: diff <(silica opt --expand-strided-metadata %s) <(mlir-opt-22 --expand-strided-metadata %s)
// RUN: diff <(silica opt --expand-strided-metadata --lower-affine --convert-to-llvm --reconcile-unrealized-casts %s) <(mlir-opt-22 --expand-strided-metadata --lower-affine --convert-to-llvm --reconcile-unrealized-casts %s)
func.func @sub(%m: memref<8x8xf32>, %i: index, %j: index) -> memref<4x4xf32, strided<[8, 1], offset: ?>> {
  %s = memref.subview %m[%i, %j][4, 4][1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
  return %s : memref<4x4xf32, strided<[8, 1], offset: ?>>
}
func.func @sub2(%m: memref<?x?xf32>, %i: index, %n: index) -> memref<?x2xf32, strided<[?, 3], offset: ?>> {
  %s = memref.subview %m[%i, 1][%n, 2][2, 3] : memref<?x?xf32> to memref<?x2xf32, strided<[?, 3], offset: ?>>
  return %s : memref<?x2xf32, strided<[?, 3], offset: ?>>
}
