// seq's canonicalizations: constant clocks fold to seq.const_clock (one
// per value, hoisted), conversions and inversions cancel, clock muxes and
// gates on constants pick their clock, gates already applied up the
// chain go, dividers combine; clock-enabled registers drop an
// always-true enable and a mux on their own enable; registers that hold
// their power-up value are that value, a false reset is dropped, an
// asynchronous reset held true is the reset value; memories lose writes
// that never happen, always-true enables, all-ones masks, and go when
// nothing reads them. Each rewrite keeps
// the simulator's meaning: the trace is the same before and after.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica opt --canonicalize %s -o %t.d/canon.mlir
// RUN: FileCheck %s < %t.d/canon.mlir
// RUN: silica sim %s --top regs --random 80 --seed 9 -o %t.d/before.trace
// RUN: silica sim %t.d/canon.mlir --top regs --random 80 --seed 9 -o %t.d/after.trace
// RUN: diff %t.d/before.trace %t.d/after.trace
// RUN: FileCheck %s --check-prefix=MEM < %t.d/canon.mlir
// RUN: silica sim %s --top mems --random 200 --seed 4 -o %t.d/mbefore.trace
// RUN: silica sim %t.d/canon.mlir --top mems --random 200 --seed 4 -o %t.d/mafter.trace
// RUN: diff %t.d/mbefore.trace %t.d/mafter.trace

// CHECK-LABEL: hw.module @clocks
// CHECK-NEXT: %[[HIGH:.+]] = seq.const_clock high
// CHECK-NEXT: %[[LOW:.+]] = seq.const_clock low
// CHECK-NEXT: %[[GATED:.+]] = seq.clock_gate %clk, %en
// CHECK-NEXT: %[[DIV:.+]] = seq.clock_div %clk by 3
// CHECK-NEXT: hw.output %clk, %[[HIGH]], %[[LOW]], %[[LOW]], %b, %clk, %[[GATED]], %[[DIV]]
hw.module @clocks(in %clk: !seq.clock, in %other: !seq.clock, in %b: i1, in %en: i1,
                  out a: !seq.clock, out hi: !seq.clock, out lo: !seq.clock, out lo2: !seq.clock,
                  out bit: i1, out pick: !seq.clock, out gated: !seq.clock, out div: !seq.clock) {
  %true = hw.constant true
  %false = hw.constant false
  %0 = seq.from_clock %clk
  %a = seq.to_clock %0
  %hi = seq.to_clock %true
  %low = seq.const_clock low
  %lo = seq.clock_inv %hi
  %lo2 = seq.clock_gate %clk, %false
  %c = seq.to_clock %b
  %bit = seq.from_clock %c
  %pick = seq.clock_mux %true, %clk, %other
  %g1 = seq.clock_gate %clk, %en, %false
  %g2 = seq.clock_gate %g1, %en
  %d1 = seq.clock_div %clk by 1
  %div = seq.clock_div %d1 by 2
  hw.output %a, %hi, %lo, %lo2, %bit, %pick, %g2, %div : !seq.clock, !seq.clock, !seq.clock, !seq.clock, i1, !seq.clock, !seq.clock, !seq.clock
}

// CHECK-LABEL: hw.module @regs
// CHECK-DAG: %[[ZERO:.+]] = hw.constant 0 : i8
// CHECK-DAG: %[[SEVEN:.+]] = hw.constant 7 : i8
// CHECK-DAG: %q0 = seq.compreg %d, %clk : i8
// CHECK-DAG: %q1 = seq.compreg.ce %d, %clk, %en : i8
// CHECK-DAG: %r2 = seq.firreg %d clock %clk : i8
// CHECK-DAG: %r5 = seq.firreg %r5 clock %clk reset sync %rst, %d : i8
// CHECK-DAG: %r6 = seq.firreg %d clock %clk reset sync %true, %d : i8
// CHECK: hw.output %q0, %q1, %[[ZERO]], %r2, %d, %[[SEVEN]], %r5, %r6, %[[ZERO]], %[[ZERO]]
hw.module @regs(in %clk: !seq.clock, in %rst: i1, in %en: i1, in %d: i8, in %x: i8,
                out q0: i8, out q1: i8, out r1: i8, out r2: i8, out r3: i8, out r4: i8, out r5: i8, out r6: i8, out r7: i8, out r8: i8) {
  %true = hw.constant true
  %false = hw.constant false
  %c0 = hw.constant 0 : i8
  %q0 = seq.compreg.ce %d, %clk, %true : i8
  %m = comb.mux %en, %d, %x : i8
  %q1 = seq.compreg.ce %m, %clk, %en : i8
  // Holds zero: its power-up value.
  %r1 = seq.firreg %r1 clock %clk : i8
  // A reset that never happens is dropped.
  %r2 = seq.firreg %d clock %clk reset sync %false, %c0 : i8
  // Asynchronously always in reset: the reset value.
  %r3 = seq.firreg %x clock %clk reset async %true, %d : i8
  // Holds its preset.
  %r4 = seq.firreg %r4 clock %clk preset 7 : i8
  // Holds 0 until reset loads %d: kept.
  %r5 = seq.firreg %r5 clock %clk reset sync %rst, %d : i8
  // Synchronously always in reset, to a value other than its power-up
  // value: kept (it is 0 until the first edge).
  %r6 = seq.firreg %d clock %clk reset sync %true, %d : i8
  // Only ever loads its power-up value.
  %mr = comb.mux %en, %r7, %c0 : i8
  %r7 = seq.firreg %mr clock %clk : i8
  // Never clocked (the simulator gives it no edge either).
  %stopped = seq.const_clock low
  %r8 = seq.firreg %d clock %stopped : i8
  hw.output %q0, %q1, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8 : i8, i8, i8, i8, i8, i8, i8, i8, i8, i8
}

// Memories: writes that never happen go, always-true enables and
// all-ones masks are dropped, and a memory nothing reads goes with its
// writes. A write on a constant clock stays: the simulator clocks memory
// ports by the module's clock.
// MEM-LABEL: hw.module @mems
// MEM-NEXT: %[[STOP:.+]] = seq.const_clock low
// MEM-NEXT: %mem = seq.firmem 0, 1, undefined, undefined : <16 x 8, mask 2>
// MEM-NEXT: %[[R:.+]] = seq.firmem.read_port %mem[%ra], clock %clk : <16 x 8, mask 2>
// MEM-NEXT: seq.firmem.write_port %mem[%wa] = %d, clock %clk {w0} : <16 x 8, mask 2>
// MEM-NEXT: seq.firmem.write_port %mem[%wa] = %d, clock %clk enable %en {w1} : <16 x 8, mask 2>
// MEM-NEXT: seq.firmem.write_port %mem[%ra] = %d, clock %[[STOP]] {w4} : <16 x 8, mask 2>
// MEM-NEXT: hw.output %[[R]] : i8
// MEM-NOT: seq.firmem
hw.module @mems(in %clk: !seq.clock, in %ra: i4, in %wa: i4, in %d: i8, in %en: i1, out q: i8) {
  %true = hw.constant true
  %false = hw.constant false
  %ones = hw.constant 3 : i2
  %zero = hw.constant 0 : i2
  %stopped = seq.const_clock low
  %mem = seq.firmem 0, 1, undefined, undefined : <16 x 8, mask 2>
  %q = seq.firmem.read_port %mem[%ra], clock %clk enable %true : <16 x 8, mask 2>
  seq.firmem.write_port %mem[%wa] = %d, clock %clk enable %true mask %ones {w0} : <16 x 8, mask 2>, i2
  seq.firmem.write_port %mem[%wa] = %d, clock %clk enable %en {w1} : <16 x 8, mask 2>
  seq.firmem.write_port %mem[%ra] = %d, clock %clk enable %false {w2} : <16 x 8, mask 2>
  seq.firmem.write_port %mem[%ra] = %d, clock %clk mask %zero {w3} : <16 x 8, mask 2>, i2
  seq.firmem.write_port %mem[%ra] = %d, clock %stopped {w4} : <16 x 8, mask 2>
  %unread = seq.firmem 0, 1, undefined, undefined : <16 x 8>
  seq.firmem.write_port %unread[%wa] = %d, clock %clk : <16 x 8>
  hw.output %q : i8
}
