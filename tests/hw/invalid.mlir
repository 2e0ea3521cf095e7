// RUN: silica opt %s --split-input-file --verify-diagnostics

// expected-note @+1 {{prior use here}}
hw.module @widths(in %a: i8, in %b: i4) {
  // expected-error @+1 {{use of value '%b' expects different type than prior uses: 'i8' vs 'i4'}}
  %0 = comb.add %a, %b : i8
}

// -----

hw.module @extract(in %a: i8) {
  // expected-error @+1 {{'comb.extract' op from bit too large for input}}
  %0 = comb.extract %a from 6 : (i8) -> i4
}

// -----

hw.module.extern @ext(in %x: i8, out y: i8)
hw.module @ports(in %a: i4) {
  // expected-error @+1 {{'hw.instance' op operand type #0 must be i8, but got i4}}
  %0 = hw.instance "e" @ext(x: %a: i4) -> (y: i8)
}

// -----

hw.module @unknown(in %a: i8) {
  // expected-error @+1 {{'hw.instance' op Cannot find module definition 'nope'}}
  %0 = hw.instance "e" @nope(x: %a: i8) -> (y: i8)
}

// -----

hw.module @outputs(in %a: i8, out o: i4) {
  // expected-error @+1 {{'hw.output' op output types must match module. In operand 0, expected 'i4', but got 'i8'.}}
  hw.output %a : i8
}
