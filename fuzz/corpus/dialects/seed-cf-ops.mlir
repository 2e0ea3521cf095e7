// cf ops (successors, operand segments, branch weights, switch) against
// mlir-opt-22, custom and generic, and back from generic.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: mlir-opt-22 --mlir-print-op-generic %s | silica opt | diff - <(mlir-opt-22 %s)

func.func @f(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb2
^bb1(%x: i32):
  cf.br ^bb3(%x, %a : i32, i32)
^bb2:
  cf.assert %c, "oops"
  cf.br ^bb3(%a, %a : i32, i32)
^bb3(%y: i32, %z: i32):
  cf.cond_br %c, ^bb4(%z : i32), ^bb5
^bb4(%r: i32):
  return %r : i32
^bb5:
  cf.cond_br %c, ^bb5, ^bb4(%a : i32) {weights = array<i32: 1, 2>}
}
func.func @g(%c: i1, %a: i32, %flag: i64) {
  cf.switch %flag : i64, [
    default: ^bb1(%a : i32),
    42: ^bb1(%a : i32),
    -7: ^bb2,
    43: ^bb3(%a, %a : i32, i32)
  ]
^bb1(%x: i32):
  cf.switch %a : i32, [
    default: ^bb2
  ]
^bb2:
  cf.switch %a : i32, [
    default: ^bb2,
    5: ^bb2
  ] {note}
^bb3(%p: i32, %q: i32):
  cf.cond_br %c weights([3, 5]), ^bb2, ^bb3(%p, %q : i32, i32)
}
