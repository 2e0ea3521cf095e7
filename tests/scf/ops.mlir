// scf ops (for with iter_args and non-index bounds, if/else, while,
// execute_region; implicit yields left out) against mlir-opt-22, custom and
// generic, and back from generic.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: mlir-opt-22 --mlir-print-op-generic %s | silica opt | diff - <(mlir-opt-22 %s)

func.func @s(%lb: index, %ub: index, %st: index, %c: i1, %x: f32, %i: i32) -> f32 {
  scf.for %iv = %lb to %ub step %st {
    %a = arith.addi %iv, %iv : index
  }
  %r = scf.for %iv = %lb to %ub step %st iter_args(%acc = %x) -> (f32) {
    %s = arith.addf %acc, %acc : f32
    scf.yield %s : f32
  }
  %r2:2 = scf.for %iv = %i to %i step %i iter_args(%a = %x, %b = %x) -> (f32, f32) : i32 {
    scf.yield %b, %a : f32, f32
  }
  scf.if %c {
    %z = arith.addf %x, %x : f32
  }
  %y = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    scf.yield %r : f32
  }
  scf.if %c {
  } else {
    %q = arith.addf %x, %x : f32
  }
  %w = scf.while (%arg = %x) : (f32) -> f32 {
    scf.condition(%c) %arg : f32
  } do {
  ^bb0(%arg2: f32):
    scf.yield %arg2 : f32
  }
  %e = scf.execute_region -> f32 {
    scf.yield %x : f32
  }
  return %y : f32
}
func.func @u(%a: index, %x: i32) -> i32 {
  %r = scf.for unsigned %i = %a to %a step %a iter_args(%s = %x) -> i32 {
    scf.yield %s : i32
  }
  return %r : i32
}
func.func @p(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%s, %s) {
    %a = arith.addi %i, %j : index
  }
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> f32 {
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %rr: f32):
      %t = arith.addf %l, %rr : f32
      scf.reduce.return %t : f32
    }
  }
  %r2:2 = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x, %x) -> (f32, f32) {
    scf.reduce(%x, %x : f32, f32) {
    ^bb0(%l: f32, %rr: f32):
      scf.reduce.return %l : f32
    }, {
    ^bb0(%l: f32, %rr: f32):
      scf.reduce.return %rr : f32
    }
  }
  return %r : f32
}
func.func @isw(%i: index, %x: i32) -> i32 {
  %0 = scf.index_switch %i -> i32
  case 2 {
    scf.yield %x : i32
  }
  case 5 {
    scf.yield %x : i32
  }
  default {
    scf.yield %x : i32
  }
  scf.index_switch %i
  case 1 {
    scf.yield
  }
  default {
  }
  return %0 : i32
}
