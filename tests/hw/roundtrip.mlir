// hw, comb and seq ops print as CIRCT 1.62 prints them (the expected
// text below is the circt wheel's output for this input).
// RUN: silica opt %s | FileCheck %s
// RUN: silica opt %s | silica opt | FileCheck %s

hw.module @f(in %a: i8, in %b: i8, in %clk: !seq.clock, in %rst: i1, out o: i8, out p: i1) {
  %c = hw.constant 3 : i8
  %0 = comb.add bin %a, %b, %c : i8
  %r = seq.compreg %0, %clk reset %rst, %c : i8
  %f = seq.firreg %r clock %clk reset async %rst, %c : i8
  %i.o, %i.p = hw.instance "inst" @g(x: %a: i8) -> (o: i8, p: i1)
  hw.output %f, %i.p : i8, i1
}
hw.module.extern @g(in %x: i8, out o: i8, out p: i1)

hw.module @regs(in %a: i8, in %clk: !seq.clock, in %rst: i1, in %en: i1, in %ck: i1) {
  %c = hw.constant 3 : i8
  %r = seq.compreg %a, %clk : i8
  %0 = seq.compreg %a, %clk : i8
  %r2 = seq.compreg sym @foo %a, %clk : i8
  %x = seq.compreg %a, %clk {name = "y"} : i8
  %e = seq.compreg.ce %a, %clk, %en : i8
  %e2 = seq.compreg.ce %a, %clk, %en reset %rst, %c : i8
  %f = seq.firreg %a clock %clk : i8
  %g = seq.firreg %a clock %clk reset sync %rst, %c : i8
  %h = seq.firreg %a clock %clk preset 5 : i8
  %k = seq.to_clock %ck
  %l = seq.from_clock %k
  %n = seq.clock_gate %k, %en
  %o = seq.clock_mux %en, %k, %n
  hw.output
}

hw.module @combs(in %a: i8, in %b: i8, in %c: i1, in %arr: !hw.array<4xi8>, in %s: !hw.struct<x: i8, y: i1>, out o: i8) {
  %0 = comb.icmp bin ult %a, %b : i8
  %1 = comb.extract %a from 2 : (i8) -> i4
  %2 = comb.replicate %1 : (i4) -> i8
  %3 = comb.concat %1, %1 : i4, i4
  %4 = comb.truth_table %c, %0 -> [false, true, true, false]
  %5 = comb.parity %a : i8
  %6 = comb.mux bin %c, %a, %b : i8
  %w = hw.wire %a : i8
  hw.output %a : i8
}
// CHECK-LABEL: hw.module @f(in %a : i8, in %b : i8, in %clk : !seq.clock, in %rst : i1, out o : i8, out p : i1) {
// CHECK-NEXT:   %c3_i8 = hw.constant 3 : i8
// CHECK-NEXT:   %0 = comb.add bin %a, %b, %c3_i8 : i8
// CHECK-NEXT:   %r = seq.compreg  %0, %clk reset %rst, %c3_i8 : i8  
// CHECK-NEXT:   %f = seq.firreg %r clock %clk reset async %rst, %c3_i8 : i8
// CHECK-NEXT:   %inst.o, %inst.p = hw.instance "inst" @g(x: %a: i8) -> (o: i8, p: i1)
// CHECK-NEXT:   hw.output %f, %inst.p : i8, i1
// CHECK-NEXT: }
// CHECK-LABEL: hw.module.extern @g(in %x : i8, out o : i8, out p : i1)
// CHECK-LABEL: hw.module @regs(in %a : i8, in %clk : !seq.clock, in %rst : i1, in %en : i1, in %ck : i1) {
// CHECK-NEXT:   %c3_i8 = hw.constant 3 : i8
// CHECK-NEXT:   %r = seq.compreg  %a, %clk : i8  
// CHECK-NEXT:   %0 = seq.compreg  %a, %clk : i8  
// CHECK-NEXT:   %r2 = seq.compreg sym @foo  %a, %clk : i8  
// CHECK-NEXT:   %y = seq.compreg  %a, %clk : i8  
// CHECK-NEXT:   %e = seq.compreg.ce  %a, %clk, %en : i8  
// CHECK-NEXT:   %e2 = seq.compreg.ce  %a, %clk, %en reset %rst, %c3_i8 : i8  
// CHECK-NEXT:   %f = seq.firreg %a clock %clk : i8
// CHECK-NEXT:   %g = seq.firreg %a clock %clk reset sync %rst, %c3_i8 : i8
// CHECK-NEXT:   %h = seq.firreg %a clock %clk preset 5 : i8
// CHECK-NEXT:   %1 = seq.to_clock %ck
// CHECK-NEXT:   %2 = seq.from_clock %1
// CHECK-NEXT:   %3 = seq.clock_gate %1, %en
// CHECK-NEXT:   %4 = seq.clock_mux %en, %1, %3
// CHECK-NEXT:   hw.output
// CHECK-NEXT: }
// CHECK-LABEL: hw.module @combs(in %a : i8, in %b : i8, in %c : i1, in %arr : !hw.array<4xi8>, in %s : !hw.struct<x: i8, y: i1>, out o : i8) {
// CHECK-NEXT:   %0 = comb.icmp bin ult %a, %b : i8
// CHECK-NEXT:   %1 = comb.extract %a from 2 : (i8) -> i4
// CHECK-NEXT:   %2 = comb.replicate %1 : (i4) -> i8
// CHECK-NEXT:   %3 = comb.concat %1, %1 : i4, i4
// CHECK-NEXT:   %4 = comb.truth_table %c, %0 -> [false, true, true, false]
// CHECK-NEXT:   %5 = comb.parity %a : i8
// CHECK-NEXT:   %6 = comb.mux bin %c, %a, %b : i8
// CHECK-NEXT:   %w = hw.wire %a  : i8
// CHECK-NEXT:   hw.output %a : i8
// CHECK-NEXT: }

