// control-flow-sink against mlir-opt-22: pure ops used only in one branch
// move into it (operands first, nested conditionals inner first); loads,
// ops used in both branches, and ops used in affine.if stay.
// RUN: diff <(silica opt --control-flow-sink --allow-unregistered-dialect --split-input-file %s) <(mlir-opt-22 --control-flow-sink --allow-unregistered-dialect --split-input-file %s)
// RUN: silica opt --control-flow-sink --allow-unregistered-dialect --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK: arith.xori
// CHECK: memref.load
// CHECK: scf.if
// CHECK-NEXT: arith.constant 5
func.func @f(%c: i1, %a: i32, %b: i32, %m: memref<4xi32>) -> i32 {
  %c5 = arith.constant 5 : i32
  %x = arith.addi %a, %b : i32
  %y = arith.muli %x, %c5 : i32
  %z = arith.subi %a, %b : i32
  %w = arith.xori %a, %b : i32
  %c0 = arith.constant 0 : index
  %l = memref.load %m[%c0] : memref<4xi32>
  %r = scf.if %c -> i32 {
    %t = arith.addi %y, %w : i32
    scf.yield %t : i32
  } else {
    %e = arith.addi %z, %w : i32
    scf.yield %l : i32
  }
  return %r : i32
}

// -----

// CHECK-LABEL: func.func @nested
// CHECK: scf.if
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.muli
// CHECK: arith.xori
// CHECK-NEXT: affine.if
func.func @nested(%c: i1, %d: i1, %a: i32, %b: i32) -> i32 {
  %x = arith.addi %a, %b : i32
  %y = arith.muli %x, %x : i32
  %r = scf.if %c -> i32 {
    %s = scf.if %d -> i32 {
      scf.yield %y : i32
    } else {
      scf.yield %a : i32
    }
    scf.yield %s : i32
  } else {
    scf.yield %b : i32
  }
  %c0 = arith.constant 0 : index
  %z = arith.xori %a, %b : i32
  affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%c0) {
    %q = arith.subi %z, %b : i32
    "test.use"(%q) : (i32) -> ()
  }
  return %r : i32
}
