// --hw-verify-irn: an inner symbol is defined once per module; ports'
// symbols count. Modules apart may reuse a name.
// RUN: silica opt %s --split-input-file --verify-diagnostics --hw-verify-irn

hw.module @B() {}

hw.module @A() {
  // expected-note @below {{see existing inner symbol definition here}}
  hw.instance "h" sym @A @B() -> ()
  // expected-error @below {{redefinition of inner symbol named 'A'}}
  hw.instance "h" sym @A @B() -> ()
}

// -----

hw.module @Fields(in %a : !hw.struct<x: i1, y: i1>) {
  // expected-note @below {{see existing inner symbol definition here}}
  %w = hw.wire %a sym [<@w,0,public>, <@y,2,private>] : !hw.struct<x: i1, y: i1>
  // expected-error @below {{redefinition of inner symbol named 'y'}}
  %y = hw.wire %a sym @y : !hw.struct<x: i1, y: i1>
}

// -----

// expected-note @below {{see existing inner symbol definition here}}
hw.module @Port(in %a : i1 {hw.exportPort = #hw<innerSym@p>}, in %clk : !seq.clock) {
  // expected-error @below {{redefinition of inner symbol named 'p'}}
  %r = seq.compreg sym @p %a, %clk : i1
}

// -----

hw.module @One(in %a : i1) {
  %w = hw.wire %a sym @w : i1
}
hw.module @Two(in %a : i1) {
  %w = hw.wire %a sym @w : i1
}
