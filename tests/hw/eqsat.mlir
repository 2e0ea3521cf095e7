// `--eqsat` on comb: a*b + a*c becomes a*(b + c) (three ops for four),
// which the greedy canonicalizer leaves alone.
// RUN: silica opt --eqsat %s | FileCheck %s
// RUN: silica opt --canonicalize %s | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: hw.module @distribute
// CHECK-NEXT: %[[S:.+]] = comb.add %b, %c : i8
// CHECK-NEXT: %[[TWO:.+]] = hw.constant 2 : i8
// CHECK-NEXT: %[[M:.+]] = comb.mul %[[S]], %[[TWO]] : i8
// CHECK-NEXT: %[[R:.+]] = comb.mul %a, %[[M]] : i8
// CHECK-NEXT: hw.output %[[R]] : i8

// CANON-LABEL: hw.module @distribute
// CANON: comb.mul %a, %b
// CANON-NEXT: comb.mul %a, %c
// CANON-NEXT: comb.add
// CANON-NEXT: comb.mul

hw.module @distribute(in %a: i8, in %b: i8, in %c: i8, out o: i8) {
  %0 = comb.mul %a, %b : i8
  %1 = comb.mul %a, %c : i8
  %2 = comb.add %0, %1 : i8
  %c2 = hw.constant 2 : i8
  %3 = comb.mul %2, %c2 : i8
  hw.output %3 : i8
}
