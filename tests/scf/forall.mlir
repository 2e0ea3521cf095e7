// scf.forall in both header forms (`in (ubs)` and `= (lbs) to (ubs) step
// (steps)`, bounds as values or constants), shared_outs, the implicit and
// the written scf.forall.in_parallel terminator: custom and generic output
// against mlir-opt-22, and back from generic.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: mlir-opt-22 --mlir-print-op-generic %s | silica opt | diff - <(mlir-opt-22 %s)

func.func private @callee(%i: index, %j: index)

func.func @forms(%ub1: index, %ub2: index, %t: tensor<4xf32>, %m: memref<8x8xf32>) -> tensor<4xf32> {
  scf.forall (%i, %j) in (%ub1, %ub2) {
    func.call @callee(%i, %j) : (index, index) -> ()
  }
  scf.forall (%i, %j) = (0, %ub1) to (10, %ub2) step (2, 1) {
    %v = memref.load %m[%i, %j] : memref<8x8xf32>
    memref.store %v, %m[%j, %i] : memref<8x8xf32>
  }
  scf.forall (%i) = (0) to (%ub1) step (1) {
    scf.forall.in_parallel {
    }
  }
  scf.forall (%i, %j) in (4, 8) {
    scf.forall (%k) in (%ub2) {
      func.call @callee(%i, %k) : (index, index) -> ()
    }
  } {unit_attr}
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
  }
  return %r : tensor<4xf32>
}
