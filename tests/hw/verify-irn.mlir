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

// -----

// Hierarchical paths resolve: each step but the last is an instance of
// the module the next step is in, and the last step exists.
hw.module @Leaf(in %a : i1 {hw.exportPort = #hw<innerSym@port>}) {
  %w = hw.wire %a sym @w : i1
}
hw.module @Mid(in %a : i1) {
  hw.instance "leaf" sym @leaf @Leaf(a: %a: i1) -> ()
}
hw.module @Top(in %a : i1) {
  hw.instance "mid" sym @mid @Mid(a: %a: i1) -> ()
}
hw.hierpath @toWire [@Top::@mid, @Mid::@leaf, @Leaf::@w]
hw.hierpath @toPort [@Top::@mid, @Mid::@leaf, @Leaf::@port]
hw.hierpath @toModule [@Top::@mid, @Mid]
// expected-error @below {{'hw.hierpath' op operation with symbol: #hw.innerNameRef<@Leaf::@missing> was not found}}
hw.hierpath @missing [@Top::@mid, @Mid::@leaf, @Leaf::@missing]

// -----

hw.module @Leaf(in %a : i1) {
  %w = hw.wire %a sym @w : i1
}
hw.module @Top(in %a : i1) {
  hw.instance "leaf" sym @leaf @Leaf(a: %a: i1) -> ()
}
// expected-error @below {{'hw.hierpath' op instance path is incorrect. Expected module: "Leaf" instead found: "Top"}}
hw.hierpath @wrong [@Top::@leaf, @Top::@leaf]

// -----

hw.module @Leaf(in %a : i1) {
  %w = hw.wire %a sym @w : i1
}
// expected-error @below {{'hw.hierpath' op module: "Leaf" does not contain any instance with symbol: "w"}}
hw.hierpath @notInstance [@Leaf::@w, @Leaf]

// -----

hw.module @Leaf() {}
hw.module @Top() {
  hw.instance "leaf" sym @leaf @Leaf() -> ()
}
// expected-error @below {{'hw.hierpath' op instance path is incorrect. Expected module: "Leaf" instead found: "Top"}}
hw.hierpath @leafModule [@Top::@leaf, @Top]
