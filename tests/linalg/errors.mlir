// A structured op the lowering cannot take is an error at the op.
// RUN: not silica opt %s --convert-linalg-to-affine-loops 2>&1 | FileCheck %s --check-prefix=DYN

// DYN: errors.mlir:[[# @LINE + 3]]:3: error: 'linalg.fill' on a memref of dynamic sizes is not supported
func.func @dynamic(%m: memref<?xi32>) {
  %c = arith.constant 1 : i32
  linalg.fill ins(%c : i32) outs(%m : memref<?xi32>)
  return
}
