// A combinational loop is an error at an op of the loop, in the Verilog
// emitter and in the simulator, and nothing is written.
// RUN: not silica translate --to-verilog %s -o %t.sv 2>&1 | FileCheck %s
// RUN: test ! -e %t.sv
// RUN: not silica sim %s --random 3 2>&1 | FileCheck %s
// CHECK: errors.mlir:[[# @LINE + 2]]:8: error: detected combinational cycle in a graph region
hw.module @loop(in %a: i8, out o: i8) {
  %x = comb.add %a, %y : i8
  %y = comb.xor %x, %a : i8
  hw.output %y : i8
}
