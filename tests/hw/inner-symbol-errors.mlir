// Inner symbols are checked as CIRCT checks them (messages as the circt
// 1.62 wheel gives them).
// RUN: silica opt %s --split-input-file --verify-diagnostics

hw.module @Duplicate(in %a : !hw.struct<a: i1, b: i2>) {
  // expected-error @+1 {{'hw.wire' op cannot assign multiple symbol names to the field id:'1'}}
  %v = hw.wire %a sym [<@v1,1,private>, <@v,1,public>] : !hw.struct<a: i1, b: i2>
}

// -----

hw.module @Empty(in %a : i1) {
  // expected-error @+1 {{'hw.wire' op has empty list of inner symbols}}
  %v = hw.wire %a sym [] : i1
}

// -----

hw.module @PastTheLastField(in %a : !hw.array<3x!hw.struct<a: i1, b: i2>>) {
  %v = hw.wire %a sym [<@v,9,nested>] : !hw.array<3x!hw.struct<a: i1, b: i2>>
  // expected-error @+1 {{'hw.wire' op field id:'10' is greater than the maximum field id:'9'}}
  %w = hw.wire %a sym [<@w,10,nested>] : !hw.array<3x!hw.struct<a: i1, b: i2>>
}

// -----

hw.module @Visibility() {
  // expected-error @+1 {{custom op 'hw.wire' expected 'public', 'private', or 'nested'}}
  %wire = hw.wire %wire sym [<@x, 1, oops>] : i1
}

// -----

hw.module @NameTwice(in %a : i1) {
  // expected-error @+1 {{custom op 'hw.wire' attribute 'name' occurs more than once in the attribute list}}
  %x = hw.wire %a sym @x {name = "y"} : i1
}

// -----

hw.module @B() {}
hw.module @InstanceField() {
  // expected-error @+1 {{'hw.instance' op does not support per-field inner symbols}}
  hw.instance "h" sym [<@A,1,public>] @B() -> ()
}

// -----

hw.module @GateField(in %clk : !seq.clock, in %en : i1) {
  // expected-error @+1 {{'seq.clock_gate' op does not support per-field inner symbols}}
  %g = seq.clock_gate %clk, %en sym [<@g,1,public>]
}

// -----

hw.module @RegisterField(in %clk : !seq.clock, in %a : i4) {
  // expected-error @+1 {{'seq.compreg' op field id:'5' is greater than the maximum field id:'0'}}
  %r = seq.compreg sym [<@r,5,public>] %a, %clk : i4
}

// -----

hw.module @MemoryField() {
  // expected-error @+1 {{'seq.firmem' op field id:'1' is greater than the maximum field id:'0'}}
  %m = seq.firmem sym [<@m,1,public>] 0, 1, undefined, undefined : <12 x 42, mask 3>
}
