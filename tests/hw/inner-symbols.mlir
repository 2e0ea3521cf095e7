// Inner symbols on wires, instances, registers, clock gates and ports
// print as CIRCT 1.62 prints them (the expected text is the circt wheel's
// output), in both the custom and the generic form, and survive a round
// trip.
// RUN: silica opt %s | FileCheck %s
// RUN: silica opt %s | silica opt | FileCheck %s
// RUN: silica opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: hw.module @M(in %a : i8 {hw.exportPort = #hw<innerSym@ap>}, in %clk : !seq.clock, out o : i8 {hw.exportPort = #hw<innerSym[<@o,1,public>]>}) {
// CHECK-NEXT: %w = hw.wire %a sym @w  : i8
// CHECK-NEXT: %v = hw.wire %0 sym [<@v,0,public>, <@v1,1,private>]  : !hw.struct<a: i1, b: i2>
// CHECK-NEXT: %0 = hw.struct_create (%true, %c-2_i2) : !hw.struct<a: i1, b: i2>
// CHECK-NEXT: %c-2_i2 = hw.constant -2 : i2
// CHECK-NEXT: %u = hw.wire %a sym @u  : i8
// CHECK-NEXT: %t = hw.wire %a sym [<@t,0,private>]  : i8
// CHECK-NEXT: %a_b = hw.wire %a sym @"x y"  name "a b" : i8
// CHECK-NEXT: hw.instance "h" sym @A @B() -> ()
// CHECK-NEXT: %1 = seq.clock_gate %clk, %true sym @cg
// CHECK-NEXT: %true = hw.constant true
// CHECK-NEXT: %r = seq.compreg sym @r  %a, %clk : i8
// CHECK-NEXT: %r2 = seq.firreg %a clock %clk sym [<@f,0,private>] : i8
// CHECK-NEXT: %sr = seq.shiftreg[2] sym @"shift/reg"  %a, %clk, %true : i8
// CHECK-NEXT: hw.output %w : i8

// GENERIC: #loc1 = loc("{{.*}}inner-symbols.mlir":{{[0-9]+}}:64)
// GENERIC: "hw.wire"(%{{.*}}) {inner_sym = #hw<innerSym@w>, name = "w"} : (i8) -> i8
// GENERIC: "hw.wire"(%{{.*}}) {inner_sym = #hw<innerSym[<@v,0,public>, <@v1,1,private>]>, name = "v"}
// GENERIC: "hw.wire"(%{{.*}}) {inner_sym = #hw<innerSym@u>, name = "u"} : (i8) -> i8
// GENERIC: "hw.instance"() {argNames = [], inner_sym = #hw<innerSym@A>, instanceName = "h", moduleName = @B, parameters = [], resultNames = []} : () -> ()
// GENERIC: "seq.clock_gate"(%{{.*}}, %{{.*}}) <{inner_sym = #hw<innerSym@cg>}> : (!seq.clock, i1) -> !seq.clock
// GENERIC: "seq.compreg"(%{{.*}}, %{{.*}}) <{inner_sym = #hw<innerSym@r>, name = "r", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (i8, !seq.clock) -> i8
// GENERIC: "seq.firreg"(%{{.*}}, %{{.*}}) <{inner_sym = #hw<innerSym[<@f,0,private>]>, name = "r2"}> : (i8, !seq.clock) -> i8
// GENERIC: per_port_attrs = [{hw.exportPort = #hw<innerSym@ap>}, {}, {hw.exportPort = #hw<innerSym[<@o,1,public>]>}], port_locs = [#loc, #loc1, #loc2]
hw.module @B() {}
hw.module @M(in %a : i8 {hw.exportPort = #hw<innerSym@ap>}, in %clk : !seq.clock, out o : i8 {hw.exportPort = #hw<innerSym[<@o,1,public>]>}) {
  %w = hw.wire %a sym @w : i8
  %v = hw.wire %s sym [<@v1,1,private>, <@v,0,public>] : !hw.struct<a: i1, b: i2>
  %s = hw.struct_create (%true, %two) : !hw.struct<a: i1, b: i2>
  %two = hw.constant 2 : i2
  %u = hw.wire %a sym [<@u,0,public>] : i8
  %t = hw.wire %a sym [<@t,0,private>] : i8
  %0 = hw.wire %a sym @"x y" name "a b" : i8
  hw.instance "h" sym @A @B() -> ()
  %c = seq.clock_gate %clk, %true sym @cg
  %true = hw.constant true
  %r = seq.compreg sym @r %a, %clk : i8
  %r2 = seq.firreg %a clock %clk sym [<@f,0,private>] : i8
  %sr = seq.shiftreg[2] sym @"shift/reg" %a, %clk, %true : i8
  hw.output %w : i8
}

// Names that are not SSA identifiers are sanitised as MLIR does; instance
// ports without names are numbered.
// CHECK-LABEL: hw.module @C(in %a : i1, out "" : i1, out "x y" : i1, out "1" : i1)
// CHECK-LABEL: hw.module @N(in %a : i1)
// CHECK-NEXT: %a_b = hw.wire %a  name "a b" : i1
// CHECK-NEXT: %_1x = hw.wire %a  name "1x" : i1
// CHECK-NEXT: %- = hw.wire %a  : i1
// CHECK-NEXT: %c.0, %c.x_y, %c.1 = hw.instance "c" @C(a: %a: i1) -> ("": i1, "x y": i1, "1": i1)
// CHECK-NEXT: %_1_d.0, %_1_d.x_y, %_1_d.1 = hw.instance "1 d" @C(a: %a: i1) -> ("": i1, "x y": i1, "1": i1)
hw.module @C(in %a : i1, out "": i1, out "x y" : i1, out "1": i1) {
  hw.output %a, %a, %a : i1, i1, i1
}
hw.module @N(in %a : i1) {
  %0 = hw.wire %a name "a b" : i1
  %1 = hw.wire %a name "1x" : i1
  %2 = hw.wire %a name "-" : i1
  %c.0, %c.1, %c.2 = hw.instance "c" @C(a: %a: i1) -> ("": i1, "x y": i1, "1": i1)
  %d.0, %d.1, %d.2 = hw.instance "1 d" @C(a: %a: i1) -> ("": i1, "x y": i1, "1": i1)
}
