// silica cosim: a call of the kernel that does not match its signature
// is refused where it is written, before anything is built.
// RUN: not silica cosim %s --kernel k 2>&1 | FileCheck %s

// CHECK: system-errors.mlir:[[# @LINE + 9]]:8: error: 'func.call' op operand type mismatch: expected operand type 'memref<8xi32>', but provided 'memref<4xi32>' for operand number 0
func.func @k(%x: memref<8xi32>, %n: index) -> i32 {
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}

func.func @main() -> i32 {
  %x = memref.alloc() : memref<4xi32>
  %n = arith.constant 4 : index
  %r = func.call @k(%x, %n) : (memref<4xi32>, index) -> i32
  return %r : i32
}
