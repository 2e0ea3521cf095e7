// convert-scf-to-cf on scf.while (with an after block, and as do-while),
// scf.execute_region, scf.index_switch and scf.parallel, and cf.switch and
// cf.assert to llvm, as mlir-opt-22.
// RUN: diff <(silica opt --convert-scf-to-cf %s) <(mlir-opt-22 --convert-scf-to-cf %s)
// RUN: diff <(silica opt --convert-scf-to-cf --convert-to-llvm %s) <(mlir-opt-22 --convert-scf-to-cf --convert-to-llvm %s)
func.func @w(%n: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i, %acc : i32, i32
  } do {
  ^bb0(%i: i32, %acc: i32):
    %i2 = arith.addi %i, %c1 : i32
    %a2 = arith.addi %acc, %i : i32
    scf.yield %i2, %a2 : i32, i32
  }
  %d = scf.while (%x = %n) : (i32) -> i32 {
    %x2 = arith.subi %x, %c1 : i32
    %c = arith.cmpi sgt, %x2, %c0 : i32
    scf.condition(%c) %x2 : i32
  } do {
  ^bb0(%x: i32):
    scf.yield %x : i32
  }
  return %r#1, %d : i32, i32
}
func.func @c(%x: i32, %y: index) {
  cf.switch %x : i32, [
    default: ^bb1(%y : index),
    3: ^bb2
  ]
^bb1(%a: index):
  return
^bb2:
  return
}
func.func @assert(%c: i1, %d: i1) {
  cf.assert %c, "boom"
  cf.assert %d, "again"
  return
}
func.func @sw(%i: index, %a: i32) -> i32 {
  %r = scf.index_switch %i -> i32
  case 2 {
    %c = arith.constant 10 : i32
    scf.yield %c : i32
  }
  case 5 {
    scf.yield %a : i32
  }
  default {
    %d = arith.constant 0 : i32
    scf.yield %d : i32
  }
  return %r : i32
}
func.func @ex(%a: i32) -> i32 {
  %r = scf.execute_region -> i32 {
    %b = arith.addi %a, %a : i32
    scf.yield %b : i32
  }
  return %r : i32
}
func.func @par(%m: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    memref.store %f, %m[%i, %j] : memref<?x?xf32>
  }
  return
}
