// Loop-carried memory dependences from the affine dependence analysis
// bound the II (RecMII): a recurrence through memory at distance 1 and
// the same at distance 2, next to a loop whose read and write of one
// array never meet across iterations. The factor is the scalar `k`, a
// multiplier (a product by a constant would be an add,
// constant_product.rs). Co-simulated bit for bit.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top recur -o %t.d --sim | FileCheck %s

// CHECK: co-simulation (seed 1): {{[0-9]+}} values match
// CHECK: recur/d1: trip 31, pipelined, II 3 (ResMII 2, RecMII 3)
// CHECK: recur/d2: trip 30, pipelined, II 2 (ResMII 2, RecMII 2)
// CHECK: recur/none: trip 32, pipelined, II 2 (ResMII 2, RecMII 1)
func.func @recur(%a: memref<32xi32>, %b: memref<32xi32>, %c: memref<32xi32>, %k: i32) {
  affine.for %i = 1 to 32 {
    %p = affine.load %a[%i - 1] : memref<32xi32>
    %m = arith.muli %p, %k : i32
    %x = affine.load %b[%i] : memref<32xi32>
    %s = arith.addi %m, %x : i32
    affine.store %s, %a[%i] : memref<32xi32>
  } {hls.label = "d1"}
  affine.for %i = 2 to 32 {
    %p = affine.load %b[%i - 2] : memref<32xi32>
    %m = arith.muli %p, %k : i32
    %s = arith.addi %m, %k : i32
    affine.store %s, %b[%i] : memref<32xi32>
  } {hls.label = "d2"}
  affine.for %i = 0 to 32 {
    %p = affine.load %c[%i] : memref<32xi32>
    %m = arith.muli %p, %k : i32
    affine.store %m, %c[%i] : memref<32xi32>
  } {hls.label = "none"}
  return
}
