// --lower-seq-shiftreg lowers constant power-on values only; another is
// an error at the shift register.
// RUN: not silica opt --lower-seq-shiftreg %s 2>&1 | FileCheck %s

// CHECK: lower-shiftreg-errors.mlir:[[# @LINE + 2]]:8: error: 'seq.shiftreg' op power-on value must be an hw.constant to be lowered
hw.module @nonconst(in %clk: !seq.clock, in %ce: i1, in %i: i8, in %p: i8, out a: i8) {
  %s = seq.shiftreg [2] %i, %clk, %ce powerOn %p : i8
  hw.output %s : i8
}
