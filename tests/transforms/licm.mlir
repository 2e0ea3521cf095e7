// loop-invariant-code-motion against mlir-opt-22: pure ops with invariant
// operands hoist (innermost loops first, chains of them), loads and
// possibly trapping divisions stay.
// RUN: diff <(silica opt --loop-invariant-code-motion %s) <(mlir-opt-22 --loop-invariant-code-motion %s)
// RUN: silica opt --loop-invariant-code-motion %s | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK: arith.addi %arg0, %arg1
// CHECK: scf.for
// CHECK-NEXT: arith.divsi
// CHECK: affine.for
// CHECK-NEXT: memref.load
func.func @f(%a: i32, %b: i32, %n: index, %m: memref<10xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %a, %b : i32
    %y = arith.muli %x, %x : i32
    %d = arith.divsi %a, %b : i32
    %c7 = arith.constant 7 : i32
    %z = arith.addi %y, %c7 : i32
    scf.for %j = %c0 to %n step %c1 {
      %w = arith.subi %z, %a : i32
      %v = arith.index_cast %i : index to i32
      %u = arith.addi %w, %v : i32
      memref.store %u, %m[%j] : memref<10xi32>
    }
    memref.store %d, %m[%i] : memref<10xi32>
  }
  affine.for %k = 0 to 10 {
    %q = arith.addi %a, %a : i32
    %l = memref.load %m[%c0] : memref<10xi32>
    affine.store %q, %m[%k] : memref<10xi32>
  }
  return
}
