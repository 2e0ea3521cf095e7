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

// expected-note @+1 {{module declared here}}
hw.module.extern @ext(in %x: i8, out y: i8)
hw.module @ports(in %a: i4) {
  // expected-error @+1 {{'hw.instance' op operand type #0 must be 'i8', but got 'i4'}}
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

// -----

hw.module @fifo_results(in %clk : !seq.clock, in %rst : i1, in %in : i32, in %rdEn : i1, in %wrEn : i1) {
  // expected-error @+1 {{operation defines 3 results but was provided 5 to bind}}
  %out, %full, %empty, %almostFull, %almostEmpty = seq.fifo depth 3 in %in rdEn %rdEn wrEn %wrEn clk %clk rst %rst : i32
}

// -----

hw.module @fifo_threshold(in %clk : !seq.clock, in %rst : i1, in %in : i32, in %rdEn : i1, in %wrEn : i1) {
  // expected-error @+1 {{'seq.fifo' op almost empty threshold must be <= FIFO depth}}
  %out, %full, %empty, %almostFull, %almostEmpty = seq.fifo depth 3 almost_full 1 almost_empty 4 in %in rdEn %rdEn wrEn %wrEn clk %clk rst %rst : i32
}

// -----

hw.module @mask_width(in %clock: !seq.clock, in %a: i4, in %d: i20, in %m: i3) {
  %mem = seq.firmem 0, 1, undefined, undefined : <12 x 20, mask 4>
  // expected-error @+1 {{'seq.firmem.write_port' op has mask operand of type ''i3'', but memory type requires ''i4''}}
  seq.firmem.write_port %mem[%a] = %d, clock %clock mask %m : <12 x 20, mask 4>, i3
}

// -----

hw.module @no_mask(in %clock: !seq.clock, in %a: i4, in %d: i20, in %m: i4) {
  %mem = seq.firmem 0, 1, undefined, undefined : <12 x 20>
  // expected-error @+1 {{'seq.firmem.write_port' op has mask operand but memory type ''!seq.firmem<12 x 20>'' has no mask}}
  seq.firmem.write_port %mem[%a] = %d, clock %clock mask %m : <12 x 20>, i4
}

// -----

// expected-note @+1 {{prior use here}}
hw.module @address_width(in %clock: !seq.clock, in %a: i3) {
  %mem = seq.firmem 0, 1, undefined, undefined : <12 x 20>
  // expected-error @+1 {{use of value '%a' expects different type than prior uses: 'i4' vs 'i3'}}
  %0 = seq.firmem.read_port %mem[%a], clock %clock : <12 x 20>
}

// -----

hw.module @shiftreg_empty(in %clock: !seq.clock, in %d: i20, in %e: i1) {
  // expected-error @+1 {{'seq.shiftreg' op attribute 'numElements' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1}}
  %r0 = seq.shiftreg [0] %d, %clock, %e : i20
}

// -----

hw.module @preset(in %clock: !seq.clock, in %next4: i4) {
  // expected-error @below {{custom op 'seq.firreg' preset value too large}}
  seq.firreg %next4 clock %clock preset 1024 : i4
}

// -----

hw.module @firreg_reset(in %input: i1, in %clk: !seq.clock) {
  // expected-error @+1 {{'seq.firreg' op must specify reset and reset value}}
  "seq.firreg"(%input, %clk) { name = "reg", isAsync } : (i1, !seq.clock) -> i1
}

// -----

hw.module @inject_index(in %a: !hw.array<4xi8>, in %i: i3, in %v: i8) {
  // expected-error @+1 {{'hw.array_inject' op failed to verify that index bit width equals ceil(log2(length(input))), or 0 or 1 if input contains only one element}}
  %0 = hw.array_inject %a[%i], %v : !hw.array<4xi8>, i3
}

// -----

hw.module @init_count() {
  // expected-error @+1 {{result type doesn't match with the terminator}}
  %0 = seq.initial () {
    %1 = hw.constant 32: i32
    seq.yield %1, %1: i32, i32
  }: () -> !seq.immutable<i32>
}

// -----

hw.module @init_type() {
  // expected-error @+1 {{'i32' is expected but got 'i16'}}
  %0 = seq.initial () {
    %1 = hw.constant 32: i16
    seq.yield %1: i16
  }: () -> !seq.immutable<i32>
}

// -----

// expected-error @+1 {{'hw.typedecl' op expects parent op 'hw.type_scope'}}
hw.typedecl @alone : i1

// -----

// expected-error @+1 {{'hw.module.extern' op requires 0 port locations but got 1}}
hw.module.extern @bad_port_locs() attributes {port_locs = [loc("port")]}

// -----

// The generic form of comb.concat states a result type that must be the
// inputs' total width.
hw.module @concat_width(in %a: i4, out out: i7) {
  // expected-error @+2 {{'comb.concat' op inferred type(s) 'i8' are incompatible with return type(s) of operation 'i7'}}
  // expected-error @+1 {{'comb.concat' op failed to infer returned types}}
  %0 = "comb.concat"(%a, %a) : (i4, i4) -> i7
  hw.output %0 : i7
}

// -----

// expected-error @+1 {{inner reference must have exactly one nested reference}}
#innerRef = #hw.innerNameRef<@innerRef>

// -----

// expected-error @+1 {{inner reference must have exactly one nested reference}}
hw.hierpath @p [@A::@b::@c]

// -----

// expected-error @+1 {{'hw.hierpath' op the instance path cannot be empty}}
hw.hierpath @p []

// -----

// expected-error @+1 {{'hw.hierpath' op the instance path can only contain inner sym reference, only the leaf can refer to a module symbol}}
hw.hierpath @p [@A, @B::@c]

// -----

hw.module @struct(in %a: i8) {}
// expected-error @+2 {{duplicate field name 'foo'}}
// expected-error @+1 {{duplicate field name 'bar'}}
hw.module @dups(in %a: !hw.struct<foo: i8, bar: i8, foo: i8, baz: i8, bar: i8>) {}

// -----

// expected-error @+1 {{expected non-function type}}
hw.module private @arrayDims(in %a: !hw.array<3 x 4 x i5>) { }

// -----

// expected-error @+1 {{unsupported dimension kind in hw.array}}
hw.module @dims(in %a: !hw.array<i3 x i4>) {}

// -----

// expected-error @below {{floating point value not valid for specified type}}
hw.module @floatDim(in %in: !hw.array<44.44axi0>) { }

// -----

hw.module @union(in %a: !hw.union<foo: i42, bar: i12>) {
  // expected-error @+2 {{'hw.union_extract' op failed to infer returned types}}
  // expected-error @+1 {{'hw.union_extract' op inferred type(s) 'i12' are incompatible with return type(s) of operation 'i42'}}
  %aget = "hw.union_extract"(%a) {fieldIndex = 1 : i32} : (!hw.union<foo: i42, bar: i12>) -> i42
}

// -----

// expected-note @+1 {{module declared here}}
hw.module.extern @p<p1: i42 = 17, p2: i1>(in %arg0: i8, out out: i8)
hw.module @Use(in %a: i8, out xx: i8) {
  // expected-error @+1 {{op expected 2 parameters but had 1}}
  %r0 = hw.instance "inst1" @p<p1: i42 = 4>(arg0: %a: i8) -> (out: i8)
  hw.output %r0: i8
}

// -----

hw.module @concat() {
  // expected-error @below {{number of operands and types do not match: got 0 operands and 1 types}}
  comb.concat : i1
}

// -----

hw.module @concat(in %arg0: i1) {
  // expected-error @below {{number of operands and types do not match: got 1 operands and 0 types}}
  comb.concat %arg0 :
}

// -----

hw.module @tt(in %a: i1, in %b: i1) {
  // expected-error @+1 {{Expected lookup table of 2^n length}}
  %0 = comb.truth_table %a, %b -> [true, false]
}

// -----

hw.module @rep(in %a: i0) {
  // expected-error @+1 {{op replicate must produce integer multiple of operand}}
  %0 = comb.replicate %a : (i0) -> i16
}
