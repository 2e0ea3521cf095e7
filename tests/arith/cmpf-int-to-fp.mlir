// A float comparison of an integer converted with sitofp/uitofp against a
// float constant becomes an integer comparison (predicate adjusted for a
// fractional constant) or a constant, unless the conversion could round;
// against mlir-opt-22.
// RUN: diff <(silica opt --canonicalize --split-input-file %s) <(mlir-opt-22 --canonicalize --split-input-file %s)
// RUN: silica opt --canonicalize --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @fractional
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[CM4:.*]] = arith.constant -4 : i32
// CHECK: %[[A:.*]] = arith.cmpi sle, %arg0, %[[C4]] : i32
// CHECK: %[[B:.*]] = arith.cmpi sge, %arg0, %[[CM4]] : i32
// CHECK: %[[C:.*]] = arith.cmpi ugt, %arg1, %{{.*}} : i8
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @fractional(%x: i32, %y: i8) -> (i1, i1, i1) {
  %p = arith.constant 4.4 : f64
  %n = arith.constant -4.4 : f64
  %h = arith.constant 3.2 : f32
  %0 = arith.sitofp %x : i32 to f64
  %1 = arith.cmpf olt, %0, %p : f64
  %2 = arith.cmpf ogt, %0, %n : f64
  %3 = arith.uitofp %y : i8 to f32
  %4 = arith.cmpf uge, %3, %h : f32
  return %1, %2, %4 : i1, i1, i1
}

// -----

// CHECK-LABEL: func.func @out_of_range
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK-DAG: %[[F:.*]] = arith.constant false
// CHECK: return %[[T]], %[[F]], %[[T]], %[[F]]
func.func @out_of_range(%x: i8, %y: i16) -> (i1, i1, i1, i1) {
  %big = arith.constant 300.0 : f32
  %neg = arith.constant -1.5 : f32
  %0 = arith.sitofp %x : i8 to f32
  %1 = arith.cmpf olt, %0, %big : f32
  %2 = arith.cmpf oeq, %0, %big : f32
  %3 = arith.uitofp %y : i16 to f32
  %4 = arith.cmpf ogt, %3, %neg : f32
  %5 = arith.cmpf uno, %3, %neg : f32
  return %1, %2, %4, %5 : i1, i1, i1, i1
}

// -----

// Kept: an i32 does not fit f16's or f32's mantissa, and these constants
// are where rounding could change the outcome.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: arith.cmpf
func.func @kept(%x: i32) -> (i1, i1) {
  %a = arith.constant 16777217.0 : f32
  %b = arith.constant 0x7C00 : f16
  %0 = arith.sitofp %x : i32 to f32
  %1 = arith.cmpf oeq, %0, %a : f32
  %2 = arith.sitofp %x : i32 to f16
  %3 = arith.cmpf olt, %2, %b : f16
  return %1, %3 : i1, i1
}
