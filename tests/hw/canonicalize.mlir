// comb ops fold through the evaluator: constant operands evaluate, and
// CIRCT's identities return an operand.
// RUN: silica opt --canonicalize %s | FileCheck %s

hw.module @f(in %a: i8, in %b: i8, in %c: i1, out o1: i8, out o2: i8, out o3: i8, out o4: i1, out o5: i8, out o6: i8) {
  %c0 = hw.constant 0 : i8
  %c3 = hw.constant 3 : i8
  %c5 = hw.constant 5 : i8
  %m1 = hw.constant -1 : i8
  %t = hw.constant true
  %0 = comb.add %c3, %c5 : i8
  %1 = comb.mul %0, %c3 : i8
  %2 = comb.add %a, %c0 : i8
  %3 = comb.and %m1, %b : i8
  %4 = comb.mux %t, %a, %b : i8
  %5 = comb.icmp ult %a, %a : i8
  %6 = comb.xor %a, %a : i8
  %7 = comb.shl %c5, %c3 : i8
  %8 = comb.concat %c3, %c5 : i8, i8
  %9 = comb.extract %8 from 4 : (i16) -> i8
  %10 = comb.sub %2, %3 : i8
  hw.output %1, %10, %4, %5, %6, %9 : i8, i8, i8, i1, i8, i8
}
// CHECK-LABEL: hw.module @f(
// CHECK-DAG: %c24_i8 = hw.constant 24 : i8
// CHECK-DAG: %false = hw.constant false
// CHECK-DAG: %c0_i8 = hw.constant 0 : i8
// CHECK-DAG: %c48_i8 = hw.constant 48 : i8
// CHECK: %0 = comb.sub %a, %b : i8
// CHECK-NEXT: hw.output %c24_i8, %0, %a, %false, %c0_i8, %c48_i8 : i8, i8, i8, i1, i8, i8
