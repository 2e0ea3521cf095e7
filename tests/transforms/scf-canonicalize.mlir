// scf canonicalization against mlir-opt-22: trivial scf.if to select,
// static conditions, forwarded and empty scf.for loops, a loop result
// known from constant bounds, duplicate iteration arguments, an
// scf.index_switch on a constant, an empty else branch and a condition
// used inside its own branches, and scf.while conditions aligned with
// the before arguments; scf.parallel dimensions of one iteration dropped
// (the loop inlined with its reductions when none is left), loops of no
// iteration replaced by their inits, and nested loops merged.
// RUN: diff <(silica opt --canonicalize %s) <(mlir-opt-22 --canonicalize %s)
// RUN: silica opt --canonicalize %s | FileCheck %s

// CHECK-LABEL: func.func @select
// CHECK-NEXT: arith.select
// CHECK-LABEL: func.func @static
// CHECK-NOT: scf.if
// CHECK-LABEL: func.func @loop
// CHECK-NOT: scf.for
func.func @select(%c: i1, %a: index, %b: index) -> (index, index) {
  %0:2 = scf.if %c -> (index, index) {
    scf.yield %a, %b : index, index
  } else {
    scf.yield %b, %b : index, index
  }
  return %0#0, %0#1 : index, index
}
func.func @static(%m: memref<i32>, %v: i32) -> i32 {
  %true = arith.constant true
  %r = scf.if %true -> i32 {
    %x = arith.addi %v, %v : i32
    memref.store %x, %m[] : memref<i32>
    scf.yield %x : i32
  } else {
    scf.yield %v : i32
  }
  return %r : i32
}
func.func @loop(%n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z) -> (i32) {
    scf.yield %s : i32
  }
  %e = scf.for %i = %c1 to %c0 step %c1 iter_args(%s = %z) -> (i32) {
    %t = arith.addi %s, %s : i32
    scf.yield %t : i32
  }
  %sum = arith.addi %r, %e : i32
  return %sum : i32
}

// CHECK-LABEL: func.func @runs_twice
// CHECK-NEXT:    %[[C:.*]] = arith.constant 4 : i32
// CHECK-NEXT:    return %[[C]]
func.func @runs_twice() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = arith.constant 3 : i32
  %b = arith.constant 4 : i32
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %a) -> i32 {
    scf.yield %b : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @duplicates
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %arg3) -> (index)
func.func @duplicates(%lb: index, %ub: index, %st: index, %v: index) -> (index, index) {
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%x = %v, %y = %v) -> (index, index) {
    %s = arith.addi %x, %y : index
    scf.yield %s, %s : index, index
  }
  return %r#0, %r#1 : index, index
}

// CHECK-LABEL: func.func @switch_constant
// CHECK-NEXT:    %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    return %[[C]]
func.func @switch_constant() -> i32 {
  %c2 = arith.constant 2 : index
  %r = scf.index_switch %c2 -> i32
  case 1 {
    %a = arith.constant 5 : i32
    scf.yield %a : i32
  }
  case 2 {
    %b = arith.constant 7 : i32
    scf.yield %b : i32
  }
  default {
    %d = arith.constant 9 : i32
    scf.yield %d : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @own_condition
// CHECK:         scf.if %arg0 {
// CHECK-NEXT:      memref.store %true
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.store %false
// CHECK:         scf.if %arg2 {
// CHECK-NEXT:      memref.store %arg0
// CHECK-NEXT:    }
func.func @own_condition(%c: i1, %m: memref<i1>, %d: i1) {
  scf.if %c {
    memref.store %c, %m[] : memref<i1>
  } else {
    memref.store %c, %m[] : memref<i1>
  }
  scf.if %d {
    memref.store %c, %m[] : memref<i1>
  } else {
  }
  return
}

// CHECK-LABEL: func.func @aligned
// CHECK:         scf.condition(%arg2) %arg3, %arg4 : i32, i32
func.func @aligned(%a: i32, %b: i32, %c: i1) -> i32 {
  %r:2 = scf.while (%x = %a, %y = %b) : (i32, i32) -> (i32, i32) {
    scf.condition(%c) %y, %x : i32, i32
  } do {
  ^bb0(%p: i32, %q: i32):
    %s = arith.addi %p, %q : i32
    scf.yield %s, %q : i32, i32
  }
  return %r#0 : i32
}

// CHECK-LABEL: func.func @parallel_dims
// CHECK:         scf.parallel (%[[J:.*]]) = (%c2) to (%c8) step (%c3)
// CHECK-NEXT:      memref.store %{{.*}}, %arg0[%c1, %[[J]]]
func.func @parallel_dims(%m: memref<?x?xi32>, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c1, %c2) to (%c2, %c8) step (%c1, %c3) {
    memref.store %x, %m[%i, %j] : memref<?x?xi32>
    scf.reduce
  }
  %r = scf.parallel (%i) = (%c3) to (%c8) step (%c8) init (%x) -> i32 {
    %v = arith.index_cast %i : index to i32
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  %z = scf.parallel (%i) = (%c8) to (%c2) step (%c1) init (%r) -> i32 {
    %v = arith.index_cast %i : index to i32
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.muli %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  return %z : i32
}

// CHECK-LABEL: func.func @parallel_nest
// CHECK:         scf.parallel (%{{.*}}, %{{.*}}) = (%c0, %c0) to (%arg1, %arg2)
func.func @parallel_nest(%m: memref<?x?xf32>, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.parallel (%j) = (%c0) to (%k) step (%c1) {
      memref.store %f, %m[%i, %j] : memref<?x?xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}
