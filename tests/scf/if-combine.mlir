// scf.if canonicalization against mlir-opt-22 (locations included):
// consecutive ifs on one condition or its negation combine (uses of the
// first's results in the second take the yielded values), and an if
// whose then branch is only another if becomes one if on both conditions
// (selects for values yielded from outside).
// RUN: diff <(silica opt --canonicalize %s) <(mlir-opt-22 --canonicalize %s)
// RUN: diff <(silica opt --canonicalize --mlir-print-debuginfo %s) <(mlir-opt-22 --canonicalize --mlir-print-debuginfo %s)
// RUN: silica opt --canonicalize %s | FileCheck %s

// The first if's unused result is dropped after combining.
// CHECK-LABEL: func.func @uses
// CHECK: %[[R:.*]] = scf.if %arg0 -> (i32)
// CHECK: %[[A:.*]] = arith.addi %arg1, %arg1
// CHECK: arith.addi %[[A]], %arg1
// CHECK: %[[M:.*]] = arith.muli %arg1, %arg1
// CHECK: arith.subi %[[M]], %arg1
// CHECK-NOT: scf.if
// CHECK: return %[[R]]
func.func @uses(%c: i1, %x: i32, %m: memref<i32>) -> i32 {
  %0 = scf.if %c -> (i32) {
    %a = arith.addi %x, %x : i32
    scf.yield %a : i32
  } else {
    %b = arith.muli %x, %x : i32
    scf.yield %b : i32
  }
  %1 = scf.if %c -> (i32) {
    %d = arith.addi %0, %x : i32
    scf.yield %d : i32
  } else {
    %e = arith.subi %0, %x : i32
    scf.yield %e : i32
  }
  return %1 : i32
}
func.func @negated(%c: i1, %m: memref<i32>, %x: i32, %y: i32) {
  %t = arith.constant true
  %n = arith.xori %c, %t : i1
  scf.if %c {
    memref.store %x, %m[] : memref<i32>
  }
  scf.if %n {
    memref.store %y, %m[] : memref<i32>
  }
  return
}
func.func @noelse(%c: i1, %m: memref<i32>, %x: i32, %y: i32) {
  scf.if %c {
    memref.store %x, %m[] : memref<i32>
  }
  scf.if %c {
    memref.store %y, %m[] : memref<i32>
  } else {
    memref.store %x, %m[] : memref<i32>
  }
  scf.if %c {
    memref.store %y, %m[] : memref<i32>
  }
  return
}
func.func @different(%c: i1, %d: i1, %m: memref<i32>, %x: i32) {
  scf.if %c {
    memref.store %x, %m[] : memref<i32>
  }
  scf.if %d {
    memref.store %x, %m[] : memref<i32>
  }
  return
}
// CHECK-LABEL: func.func @res
// CHECK: %[[AND:.*]] = arith.andi %arg0, %arg1 : i1
// CHECK: arith.select %arg0, %arg2, %arg3 : i32
// CHECK: scf.if %[[AND]] -> (i32)
func.func @res(%c: i1, %d: i1, %x: i32, %y: i32) -> (i32, i32) {
  %0:2 = scf.if %c -> (i32, i32) {
    %1 = scf.if %d -> (i32) {
      %a = arith.addi %x, %y : i32
      scf.yield %a : i32
    } else {
      scf.yield %y : i32
    }
    scf.yield %1, %x : i32, i32
  } else {
    scf.yield %y, %y : i32, i32
  }
  return %0#0, %0#1 : i32, i32
}
func.func @mismatch(%c: i1, %d: i1, %x: i32, %y: i32) -> i32 {
  %0 = scf.if %c -> (i32) {
    %1 = scf.if %d -> (i32) {
      scf.yield %x : i32
    } else {
      scf.yield %x : i32
    }
    scf.yield %1 : i32
  } else {
    scf.yield %y : i32
  }
  return %0 : i32
}
func.func @store(%c: i1, %d: i1, %m: memref<i32>, %x: i32) {
  scf.if %c {
    scf.if %d {
      memref.store %x, %m[] : memref<i32>
    } else {
      memref.store %x, %m[] : memref<i32>
    }
  }
  return
}
func.func @three(%c: i1, %d: i1, %e: i1, %m: memref<i32>, %x: i32) {
  scf.if %c {
    scf.if %d {
      scf.if %e {
        memref.store %x, %m[] : memref<i32>
      }
    }
  }
  return
}
