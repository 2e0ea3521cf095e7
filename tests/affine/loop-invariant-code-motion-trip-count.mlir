// affine-loop-invariant-code-motion moves ops with memory effects only out
// of loops known to run: mlir-opt-22 moves the store out of a loop of
// unknown trip count (which stores when the loop would not have; upstream
// MLIR has since stopped doing so), silica keeps it in the loop. Pure ops
// still move.
// RUN: silica opt --affine-loop-invariant-code-motion %s | FileCheck %s

// CHECK-LABEL: func.func @unknown_trip_count
// CHECK: arith.addf
// CHECK-NEXT: affine.for
// CHECK-NEXT: affine.store
func.func @unknown_trip_count(%A: memref<10xf32>, %n: index, %x: f32) {
  affine.for %i = 0 to %n {
    %y = arith.addf %x, %x : f32
    affine.store %y, %A[0] : memref<10xf32>
  }
  return
}
