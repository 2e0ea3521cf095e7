// Folding, constant uniquing and hoisting, dead code and unreachable
// blocks under --canonicalize, against mlir-opt-22 (with locations too).
// RUN: diff <(silica opt --canonicalize --split-input-file %s) <(mlir-opt-22 --canonicalize --split-input-file %s)
// RUN: diff <(silica opt --canonicalize --mlir-print-debuginfo --split-input-file %s) <(mlir-opt-22 --canonicalize --mlir-print-debuginfo --split-input-file %s)
// RUN: silica opt --canonicalize --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @wrap
// CHECK-DAG: %c-128_i8 = arith.constant -128 : i8
// CHECK-DAG: %c121_i8 = arith.constant 121 : i8
// CHECK-DAG: %c2_i8 = arith.constant 2 : i8
// CHECK-DAG: %c0_i8 = arith.constant 0 : i8
func.func @wrap() -> (i8, i8, i8, i8, i8, i8) {
  %a = arith.constant 127 : i8
  %b = arith.constant 1 : i8
  %m = arith.constant -1 : i8
  %0 = arith.addi %a, %b : i8
  %1 = arith.muli %a, %a : i8
  %2 = arith.divui %m, %a : i8
  %3 = arith.shrsi %0, %a : i8
  %4 = arith.subi %b, %b : i8
  %5 = arith.muli %a, %m : i8
  %6 = arith.addi %5, %m : i8
  %7 = arith.muli %6, %b : i8
  %8 = arith.addi %7, %m : i8
  %9 = arith.addi %8, %m : i8
  %10 = arith.addi %9, %m : i8
  %11 = arith.addi %10, %m : i8
  %12 = arith.addi %11, %m : i8
  %13 = arith.addi %12, %m : i8
  %14 = arith.addi %13, %m : i8
  %15 = arith.addi %14, %b : i8
  %16 = arith.subi %15, %1 : i8
  %17 = arith.shrui %16, %16 : i8
  %18 = arith.muli %17, %b : i8
  %19 = arith.addi %18, %16 : i8
  %20 = arith.addi %16, %4 : i8
  return %0, %2, %3, %4, %19, %20 : i8, i8, i8, i8, i8, i8
}

// -----

// No fold: division by zero, signed overflow, shifts past the width.
// CHECK-LABEL: func.func @no_fold
// CHECK: arith.divsi
// CHECK: arith.remui
// CHECK: arith.shli
func.func @no_fold() -> (i32, i32, i32) {
  %min = arith.constant -2147483648 : i32
  %m1 = arith.constant -1 : i32
  %z = arith.constant 0 : i32
  %w = arith.constant 32 : i32
  %0 = arith.divsi %min, %m1 : i32
  %1 = arith.remui %m1, %z : i32
  %2 = arith.shli %m1, %w : i32
  return %0, %1, %2 : i32, i32, i32
}

// -----

// CHECK-LABEL: func.func @wide
// CHECK: arith.constant -170141183460469231731687303715884105728 : i128
func.func @wide() -> (i128, i1, index) {
  %a = arith.constant 170141183460469231731687303715884105727 : i128
  %b = arith.constant 1 : i128
  %0 = arith.addi %a, %b : i128
  %1 = arith.cmpi slt, %0, %a : i128
  %i = arith.constant 9223372036854775807 : index
  %j = arith.constant 2 : index
  %2 = arith.muli %i, %j : index
  return %0, %1, %2 : i128, i1, index
}

// -----

// CHECK-LABEL: func.func @identities
func.func @identities(%x: i32, %y: i32, %c: i1) -> (i32, i32, i32, i32, i32, i32, i32, i32, i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %m1 = arith.constant -1 : i32
  %0 = arith.addi %c0, %x : i32
  %1 = arith.muli %x, %c1 : i32
  %2 = arith.muli %x, %c0 : i32
  %3 = arith.andi %x, %m1 : i32
  %4 = arith.ori %x, %x : i32
  %5 = arith.xori %y, %y : i32
  %6 = arith.subi %y, %y : i32
  %7 = arith.select %c, %x, %x : i32
  %8 = arith.cmpi sle, %x, %x : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i32, i32, i32, i32, i1
}

// -----

// CHECK-LABEL: func.func @floats
// CHECK-DAG: arith.constant 3.000000e-01 : f32
// CHECK-DAG: arith.constant 0x7FC00000 : f32
func.func @floats() -> (f32, f64, f16, bf16, f32, f32) {
  %a = arith.constant 0.1 : f32
  %b = arith.constant 0.2 : f32
  %0 = arith.addf %a, %b : f32
  %c = arith.constant 0.1 : f64
  %d = arith.constant 0.2 : f64
  %1 = arith.addf %c, %d : f64
  %e = arith.constant 1.0e4 : f16
  %2 = arith.mulf %e, %e : f16
  %f = arith.constant 3.0 : bf16
  %g = arith.constant 7.0 : bf16
  %3 = arith.divf %f, %g : bf16
  %z = arith.constant 0.0 : f32
  %4 = arith.divf %z, %z : f32
  %5 = arith.negf %a : f32
  return %0, %1, %2, %3, %4, %5 : f32, f64, f16, bf16, f32, f32
}

// -----

// Constants are uniqued and hoisted to the function entry, out of loops.
// CHECK-LABEL: func.func @hoist
// CHECK-NEXT: arith.constant
func.func @hoist(%a: index, %m: memref<10xindex>) {
  %c0 = arith.constant 0 : index
  %x = arith.addi %a, %c0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  scf.for %i = %c0 to %c10 step %c1 {
    %c5 = arith.constant 5 : index
    %c2 = arith.constant 2 : index
    %y = arith.addi %c5, %c2 : index
    memref.store %y, %m[%i] : memref<10xindex>
  }
  affine.for %i = 0 to 10 {
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %y = arith.addi %c3, %c7 : index
    memref.store %y, %m[%i] : memref<10xindex>
  }
  %c9 = arith.constant 9 : index
  memref.store %c9, %m[%x] : memref<10xindex>
  return
}

// -----

// Dead pure ops, loads and allocations go; stores stay; unreachable
// blocks and unused block arguments go.
// CHECK-LABEL: func.func @dead
// CHECK-NOT: memref.alloc
// CHECK: memref.store
// CHECK-NOT: ^bb4
func.func @dead(%a: i32, %c: i1, %m: memref<4xi32>) -> i32 {
  %c1 = arith.constant 1 : i32
  %i = arith.constant 0 : index
  %l = memref.load %m[%i] : memref<4xi32>
  %al = memref.alloc() : memref<8xi32>
  %u = arith.muli %a, %l : i32
  memref.store %a, %m[%i] : memref<4xi32>
  cf.cond_br %c, ^bb1(%a, %c1 : i32, i32), ^bb2(%a : i32)
^bb1(%x: i32, %unused: i32):
  %y = arith.addi %x, %x : i32
  cf.br ^bb3(%y, %c1 : i32, i32)
^bb2(%z: i32):
  cf.br ^bb3(%z, %z : i32, i32)
^bb3(%r: i32, %dead: i32):
  return %r : i32
^bb4:
  %q = arith.addi %a, %a : i32
  cf.br ^bb4
}

// -----

// Negations: addi of a value times -1 becomes a subi, (a - b) - a becomes
// 0 - b, and x | ~x is all ones.
// CHECK-LABEL: func.func @negations(
// CHECK-DAG:     %[[M1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[MB:.*]] = arith.constant -4 : i32
// CHECK:         %[[S1:.*]] = arith.subi %arg0, %arg1 : i32
// CHECK:         %[[S2:.*]] = arith.subi %arg1, %arg0 : i32
// CHECK:         return %[[S1]], %[[S2]], %[[MB]], %[[M1]]
func.func @negations(%x: i32, %y: i32) -> (i32, i32, i32, i32) {
  %m = arith.constant -1 : i32
  %c4 = arith.constant 4 : i32
  %ny = arith.muli %y, %m : i32
  %nx = arith.muli %x, %m : i32
  %a = arith.addi %x, %ny : i32
  %b = arith.addi %nx, %y : i32
  %d = arith.subi %x, %c4 : i32
  %e = arith.subi %d, %x : i32
  %not = arith.xori %x, %m : i32
  %f = arith.ori %not, %x : i32
  return %a, %b, %e, %f : i32, i32, i32, i32
}

// -----

// A truncation of an extension from a narrower type is that extension.
// CHECK-LABEL: func.func @trunc_of_ext(
// CHECK-NEXT:    arith.extui %arg0 : i1 to i2
// CHECK-NEXT:    arith.extsi %arg1 : i3 to i5
func.func @trunc_of_ext(%x: i1, %y: i3) -> (i2, i5) {
  %e = arith.extui %x : i1 to i8
  %t = arith.trunci %e : i8 to i2
  %s = arith.extsi %y : i3 to i16
  %u = arith.trunci %s : i16 to i5
  return %t, %u : i2, i5
}

// -----

// Products and quotients of two negations, a product with zero when NaNs
// and signed zeros may be ignored, and a bitcast of poison.
// CHECK-LABEL: func.func @float_negations(
// CHECK-DAG:     %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[P:.*]] = ub.poison : f32
// CHECK:         %[[M:.*]] = arith.mulf %arg0, %arg1 : f32
// CHECK:         %[[D:.*]] = arith.divf %arg0, %arg1 fastmath<fast> : f32
// CHECK:         return %[[M]], %[[D]], %[[Z]], %[[P]]
func.func @float_negations(%x: f32, %y: f32) -> (f32, f32, f32, f32) {
  %nx = arith.negf %x : f32
  %ny = arith.negf %y : f32
  %m = arith.mulf %nx, %ny : f32
  %d = arith.divf %nx, %ny fastmath<fast> : f32
  %zero = arith.constant 0.0 : f32
  %z = arith.mulf %x, %zero fastmath<nnan,nsz> : f32
  %p = ub.poison : i32
  %b = arith.bitcast %p : i32 to f32
  return %m, %d, %z, %b : f32, f32, f32, f32
}

// -----

// Float comparisons of constants fold exactly; a NaN operand decides alone
// (ordered predicates fail, unordered ones hold).
// CHECK-LABEL: func.func @float_compares
// CHECK-DAG: %true = arith.constant true
// CHECK-DAG: %false = arith.constant false
// CHECK: return %true, %false, %false, %true, %true, %false
func.func @float_compares(%x: f32) -> (i1, i1, i1, i1, i1, i1) {
  %a = arith.constant 1.0 : f32
  %b = arith.constant 2.0 : f32
  %n = arith.constant 0x7FC00000 : f32
  %m = arith.constant -0.0 : f32
  %z = arith.constant 0.0 : f32
  %0 = arith.cmpf olt, %a, %b : f32
  %1 = arith.cmpf uge, %a, %b : f32
  %2 = arith.cmpf oeq, %x, %n : f32
  %3 = arith.cmpf une, %n, %x : f32
  %4 = arith.cmpf oeq, %m, %z : f32
  %5 = arith.cmpf ord, %n, %a : f32
  return %0, %1, %2, %3, %4, %5 : i1, i1, i1, i1, i1, i1
}

// -----

// An assertion of a constant true condition is erased; others stay.
// CHECK-LABEL: func.func @asserts
// CHECK-NEXT: %[[F:.*]] = arith.constant false
// CHECK-NEXT: cf.assert %arg0, "kept"
// CHECK-NEXT: cf.assert %[[F]], "fails"
// CHECK-NEXT: return
func.func @asserts(%c: i1) {
  %true = arith.constant true
  %false = arith.constant false
  cf.assert %true, "erased"
  cf.assert %c, "kept"
  cf.assert %false, "fails"
  return
}
