// affine-loop-coalescing leaves a band alone when an inner upper bound
// depends on an enclosing loop's induction variable: it would become a
// symbol of the coalesced bound, which mlir-opt-22 builds anyway (its
// verifier then rejects the IR: "dimensional operand cannot be used as a
// symbol").
// RUN: silica opt --allow-unregistered-dialect --affine-loop-coalescing %s | FileCheck %s

// CHECK-LABEL: func.func @triangular
// CHECK: affine.for %[[I:.*]] = 0 to 30 {
// CHECK-NEXT: "test.use"
// CHECK-NEXT: affine.for %{{.*}} = 0 to 20 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to #map(%[[I]]) {
func.func @triangular(%A: memref<30x30xi32>, %x: i32) {
  affine.for %i = 0 to 30 {
    "test.use"(%i) : (index) -> ()
    affine.for %k = 0 to 20 {
      affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
        affine.store %x, %A[%i, %j] : memref<30x30xi32>
      }
    }
  }
  return
}
