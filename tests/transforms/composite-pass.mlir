// composite-fixed-point-pass runs its pipeline until the IR stops
// changing, as mlir-opt-22's; a bad inner pipeline or iteration count is
// an error naming the pass.
// RUN: diff <(silica opt --composite-fixed-point-pass='name=TestCompositePass pipeline=any(canonicalize,cse)' --split-input-file %s) <(mlir-opt-22 --composite-fixed-point-pass='name=TestCompositePass pipeline=any(canonicalize,cse)' --split-input-file %s)
// RUN: silica opt -p 'builtin.module(composite-fixed-point-pass{pipeline=builtin.module(func.func(canonicalize),cse) max-iterations=3})' --split-input-file %s | FileCheck %s
// RUN: not silica opt --composite-fixed-point-pass='pipeline=bogus(' %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not silica opt --composite-fixed-point-pass='pipeline=any(cse) max-iterations=0' %s 2>&1 | FileCheck %s --check-prefix=ZERO

// BAD: invalid pipeline 'bogus(' for pass 'composite-fixed-point-pass'
// ZERO: invalid value '0' for option 'max-iterations' of pass 'composite-fixed-point-pass': expected at least 1

// CHECK-LABEL: func.func @test
// CHECK-NEXT: return
func.func @test() {
  return
}

// -----

// CHECK-LABEL: func.func @folds
// CHECK-NEXT: %[[C:.*]] = arith.constant 3 : i32
// CHECK-NEXT: return %[[C]], %[[C]]
func.func @folds() -> (i32, i32) {
  %0 = arith.constant 1 : i32
  %1 = arith.constant 2 : i32
  %2 = arith.addi %0, %1 : i32
  %3 = arith.addi %1, %0 : i32
  return %2, %3 : i32, i32
}
