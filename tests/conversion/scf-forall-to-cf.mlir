// scf.forall through --convert-scf-to-cf: an scf.parallel over its bounds
// (static ones as constants), then a loop nest; and the passes that stop
// at scf.parallel and at scf.for; byte for byte as mlir-opt-22 lowers it.
// RUN: diff <(silica opt --convert-scf-to-cf %s) <(mlir-opt-22 --convert-scf-to-cf %s)
// RUN: diff <(silica opt --convert-scf-to-cf --convert-to-llvm %s) <(mlir-opt-22 --convert-scf-to-cf --convert-to-llvm %s)
// RUN: diff <(silica opt --scf-forall-to-parallel %s) <(mlir-opt-22 --scf-forall-to-parallel %s)
// RUN: diff <(silica opt --scf-forall-to-for %s) <(mlir-opt-22 --scf-forall-to-for %s)

func.func private @callee(%i: index, %j: index)

func.func @normalized(%ub1: index) {
  scf.forall (%i, %j) in (%ub1, 4) {
    func.call @callee(%i, %j) : (index, index) -> ()
  }
  return
}

func.func @bounds(%lb: index, %ub: index, %m: memref<16x16xf32>) {
  scf.forall (%i, %j) = (%lb, 2) to (%ub, 16) step (3, %lb) {
    %v = memref.load %m[%i, %j] : memref<16x16xf32>
    memref.store %v, %m[%j, %i] : memref<16x16xf32>
  }
  return
}

func.func @nested(%n: index) {
  scf.forall (%i) in (%n) {
    scf.forall (%j) in (8) {
      func.call @callee(%i, %j) : (index, index) -> ()
    }
    scf.forall.in_parallel {
    }
  }
  return
}
