// A poison operand folds integer and float binary ops to poison (shifts
// aside; identities such as x & 0 first), and remf folds constants as
// C's fmod; against mlir-opt-22.
// RUN: diff <(silica opt --canonicalize --split-input-file %s) <(mlir-opt-22 --canonicalize --split-input-file %s)
// RUN: silica opt --canonicalize --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @ints
// CHECK-DAG: %[[P:.*]] = ub.poison : i32
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: %[[S:.*]] = arith.shli %[[P]], %arg0
// CHECK: return %[[P]], %[[P]], %[[P]], %[[Z]], %[[S]]
func.func @ints(%x: i32) -> (i32, i32, i32, i32, i32) {
  %p = ub.poison : i32
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %x, %p : i32
  %1 = arith.divsi %p, %x : i32
  %2 = arith.maxui %x, %p : i32
  %3 = arith.andi %p, %c0 : i32
  %4 = arith.shli %p, %x : i32
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}

// -----

// CHECK-LABEL: func.func @floats
// CHECK: %[[P:.*]] = ub.poison : f32
// CHECK: return %[[P]], %[[P]], %[[P]]
func.func @floats(%f: f32) -> (f32, f32, f32) {
  %q = ub.poison : f32
  %0 = arith.mulf %q, %f : f32
  %1 = arith.remf %f, %q : f32
  %2 = arith.maximumf %f, %q : f32
  return %0, %1, %2 : f32, f32, f32
}

// -----

// CHECK-LABEL: func.func @remf
// CHECK-DAG: arith.constant 1.500000e+00 : f32
// CHECK-DAG: arith.constant -1.250000e+00 : f64
// CHECK-DAG: arith.constant 1.000000e+00 : f16
// CHECK-DAG: arith.constant 0x7FC00000 : f32
func.func @remf() -> (f32, f64, f16, f32) {
  %a = arith.constant 5.5 : f32
  %b = arith.constant -2.0 : f32
  %0 = arith.remf %a, %b : f32
  %c = arith.constant -7.25 : f64
  %d = arith.constant 3.0 : f64
  %1 = arith.remf %c, %d : f64
  %e = arith.constant 10.0 : f16
  %f = arith.constant 3.0 : f16
  %2 = arith.remf %e, %f : f16
  %z = arith.constant 0.0 : f32
  %3 = arith.remf %a, %z : f32
  return %0, %1, %2, %3 : f32, f64, f16, f32
}
