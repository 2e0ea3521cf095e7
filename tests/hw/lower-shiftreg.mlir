// --lower-seq-shiftreg: a shift register becomes a chain of clock-enabled
// registers named and symbolled <name>_sh<i>, sharing clock, enable and
// reset; a constant power-on value becomes one seq.initial that every
// stage starts from. The simulator gives the same trace before and after.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica opt --lower-seq-shiftreg %s -o %t.d/lowered.mlir
// RUN: FileCheck %s < %t.d/lowered.mlir
// RUN: silica sim %s --top top --random 60 --seed 3 -o %t.d/before.trace
// RUN: silica sim %t.d/lowered.mlir --top top --random 60 --seed 3 -o %t.d/after.trace
// RUN: diff %t.d/before.trace %t.d/after.trace

// CHECK-LABEL: hw.module @top
// CHECK: %r0_sh1 = seq.compreg.ce sym @r0_sh1 %i, %clk, %ce : i8
// CHECK-NEXT: %r0_sh2 = seq.compreg.ce sym @r0_sh2 %r0_sh1, %clk, %ce : i8
// CHECK-NEXT: %r0_sh3 = seq.compreg.ce sym @r0_sh3 %r0_sh2, %clk, %ce : i8
// CHECK-NEXT: %[[INIT:.+]] = seq.initial() {
// CHECK-NEXT:   %[[C:.+]] = hw.constant 9 : i8
// CHECK-NEXT:   seq.yield %[[C]] : i8
// CHECK-NEXT: } : () -> !seq.immutable<i8>
// CHECK-NEXT: %s_sh1 = seq.compreg.ce sym @s_sh1 %i, %clk, %ce reset %rst, %c9_i8 initial %[[INIT]] : i8
// CHECK-NEXT: %s_sh2 = seq.compreg.ce sym @s_sh2 %s_sh1, %clk, %ce reset %rst, %c9_i8 initial %[[INIT]] : i8
// CHECK-NEXT: hw.output %r0_sh3, %s_sh2 : i8, i8
// CHECK-NOT: seq.shiftreg
hw.module @top(in %clk: !seq.clock, in %rst: i1, in %ce: i1, in %i: i8, out a: i8, out b: i8) {
  %rv = hw.constant 9 : i8
  %r0 = seq.shiftreg [3] %i, %clk, %ce : i8
  %s = seq.shiftreg [2] sym @s %i, %clk, %ce reset %rst, %rv powerOn %rv : i8
  hw.output %r0, %s : i8, i8
}

