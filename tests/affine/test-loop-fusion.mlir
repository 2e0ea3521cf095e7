// `test-loop-fusion`: the fusion utilities' dependence check (a store
// between two nests that both touch its memref leaves no place for the
// fused nest), remarks checked by both tools, and one fusion made by the
// utilities. Their slices: test-loop-fusion-slices.mlir.
// RUN: silica opt --test-loop-fusion=test-loop-fusion-dependence-check --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --test-loop-fusion=test-loop-fusion-dependence-check --split-input-file --verify-diagnostics %s
// RUN: silica opt --test-loop-fusion=test-loop-fusion-utilities --canonicalize --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @blocked
// CHECK-COUNT-2: affine.for
func.func @blocked(%x: memref<8xf32>, %y: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  affine.for %i = 0 to 8 {
    // expected-remark@-1 {{block-level dependence preventing fusion of loop nest 0 into loop nest 1 at depth 0}}
    %v = affine.load %x[%i] : memref<8xf32>
    affine.store %v, %y[%i] : memref<8xf32>
  }
  affine.store %f, %x[%c1] : memref<8xf32>
  affine.for %j = 0 to 8 {
    // expected-remark@-1 {{block-level dependence preventing fusion of loop nest 1 into loop nest 0 at depth 0}}
    %u = affine.load %x[%j] : memref<8xf32>
    affine.store %u, %y[%j] : memref<8xf32>
  }
  return
}

// -----

// The producer's slice runs only the consumer's range.
// CHECK-LABEL: func.func @chain
// CHECK:      affine.for %[[I:.*]] = 2 to 10 {
// CHECK-NEXT:   %[[V:.*]] = affine.load %arg0[%[[I]]] : memref<16xf32>
// CHECK-NEXT:   %[[D:.*]] = arith.addf %[[V]], %[[V]] : f32
// CHECK-NEXT:   affine.store %[[D]], %arg1[%[[I]]] : memref<16xf32>
// CHECK-NEXT:   %[[W:.*]] = affine.load %arg1[%[[I]]] : memref<16xf32>
// CHECK-NEXT:   affine.store %[[W]], %arg2[%[[I]]] : memref<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @chain(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %v = affine.load %a[%i] : memref<16xf32>
    %d = arith.addf %v, %v : f32
    affine.store %d, %b[%i] : memref<16xf32>
  }
  affine.for %j = 2 to 10 {
    %w = affine.load %b[%j] : memref<16xf32>
    affine.store %w, %c[%j] : memref<16xf32>
  }
  return
}
