// scf-for-loop-canonicalization against mlir-opt-22: affine.min/max over
// the induction variable of a loop with constant bounds become the result
// that always bounds the others (a constant, or an affine.apply); results
// that only sometimes bound, symbolic operands and loops whose bounds
// depend on another induction variable are left alone.
// RUN: diff <(silica opt %s -scf-for-loop-canonicalization) <(mlir-opt-22 %s -scf-for-loop-canonicalization)
// RUN: silica opt %s -scf-for-loop-canonicalization | FileCheck %s

// CHECK-LABEL: func.func @tile(
// CHECK:         scf.for %[[I:.*]] =
// CHECK-NEXT:      affine.max #{{.*}}(%[[I]])
// CHECK-NEXT:      affine.min #{{.*}}(%[[I]])[%arg1]
// CHECK-NEXT:      affine.apply #{{.*}}(%[[I]])
// CHECK-NEXT:      arith.addi %{{.*}}, %c3 : index
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        affine.min
func.func @tile(%A : memref<i64>, %n : index) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  scf.for %i = %c0 to %c12 step %c3 {
    %1 = affine.min affine_map<(d0) -> (3, 12 - d0)> (%i)
    %2 = affine.max affine_map<(d0) -> (d0, 4)> (%i)
    %3 = affine.min affine_map<(d0)[s0] -> (3, s0 - d0)> (%i)[%n]
    %4 = affine.min affine_map<(d0) -> (d0 + 1, d0 + 1)> (%i)
    %a = arith.addi %1, %2 : index
    %b = arith.addi %a, %3 : index
    %c = arith.addi %b, %4 : index
    %5 = arith.index_cast %c : index to i64
    memref.store %5, %A[] : memref<i64>
  }
  scf.for %i = %c0 to %c10 step %c3 {
    scf.for %j = %i to %c10 step %c3 {
      %1 = affine.min affine_map<(d0, d1) -> (3, 10 - d1, d1 - d0 + 5)> (%i, %j)
      %5 = arith.index_cast %1 : index to i64
      memref.store %5, %A[] : memref<i64>
    }
  }
  return
}
