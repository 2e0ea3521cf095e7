// sccp against mlir-opt-22: constants through branches and block arguments,
// only executable edges joined, loop-carried constants, constants uniqued
// at the function entry.
// RUN: diff <(silica opt --sccp %s) <(mlir-opt-22 --sccp %s)
// RUN: silica opt --sccp %s | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK-NEXT: %c6_i32 = arith.constant 6 : i32
// CHECK: arith.addi %c6_i32, %arg0
// CHECK-LABEL: func.func @loop
// CHECK: return %c1_i32
func.func @f(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %t = arith.constant true
  %x = arith.addi %c1, %c2 : i32
  cf.cond_br %t, ^bb1(%x : i32), ^bb2(%a : i32)
^bb1(%p: i32):
  %y = arith.muli %p, %c2 : i32
  cf.br ^bb3(%y : i32)
^bb2(%q: i32):
  cf.br ^bb3(%q : i32)
^bb3(%r: i32):
  %z = arith.addi %r, %a : i32
  return %z : i32
}
func.func @loop(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^h(%c0, %c1 : i32, i32)
^h(%i: i32, %k: i32):
  %cond = arith.cmpi slt, %i, %n : i32
  cf.cond_br %cond, ^body, ^exit
^body:
  %k2 = arith.muli %k, %c1 : i32
  %i2 = arith.addi %i, %c1 : i32
  cf.br ^h(%i2, %k2 : i32, i32)
^exit:
  return %k : i32
}
