// --lower-seq-compreg-ce: a clock-enabled register becomes a plain one
// fed by a multiplexer on its enable, keeping its name, inner symbol,
// reset and initial value; the simulator gives the same trace before and
// after.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica opt --lower-seq-compreg-ce %s -o %t.d/lowered.mlir
// RUN: FileCheck %s < %t.d/lowered.mlir
// RUN: silica sim %s --top cetest --random 100 --seed 6 -o %t.d/before.trace
// RUN: silica sim %t.d/lowered.mlir --top cetest --random 100 --seed 6 -o %t.d/after.trace
// RUN: diff %t.d/before.trace %t.d/after.trace

// CHECK-LABEL: hw.module @cetest
// CHECK: %[[M0:.+]] = comb.mux %ce, %i, %r0 : i8
// CHECK-NEXT: %r0 = seq.compreg %[[M0]], %clk reset %rst, %c5_i8 : i8
// CHECK: %[[M1:.+]] = comb.mux %ce, %i, %r1 : i8
// CHECK-NEXT: %r1 = seq.compreg sym @withinitial %[[M1]], %clk initial %[[INIT:.+]] : i8
// CHECK-NOT: seq.compreg.ce
hw.module @cetest(in %clk: !seq.clock, in %rst: i1, in %ce: i1, in %i: i8, out a: i8, out b: i8) {
  %rv = hw.constant 5 : i8
  %init = seq.initial() {
    %c9 = hw.constant 9 : i8
    seq.yield %c9 : i8
  } : () -> !seq.immutable<i8>
  %r0 = seq.compreg.ce %i, %clk, %ce reset %rst, %rv : i8
  %r1 = seq.compreg.ce sym @withinitial %i, %clk, %ce initial %init : i8
  hw.output %r0, %r1 : i8, i8
}
