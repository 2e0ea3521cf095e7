// Inout ports: declared `inout` and passed by name to the instances that
// take them (nothing in hw, comb or seq reads or drives them, so
// `silica sim` leaves them undriven and asks no stimuli for them).
// Verilator, yosys and Icarus accept the Verilog; Icarus agrees with
// `silica sim` on the other ports.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica opt %s | FileCheck %s --check-prefix=IR
// RUN: silica translate --to-verilog %s -o %t.d/inout.sv
// RUN: FileCheck %s < %t.d/inout.sv
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module bus_top %t.d/inout.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/inout.sv; synth_ice40 -dsp -top bus_top"
// RUN: silica sim %s --top bus_top --random 20 --seed 3 --testbench %t.d/tb.sv -o %t.d/silica.trace
// RUN: iverilog -g2012 -o %t.d/inout.vvp %t.d/inout.sv %t.d/tb.sv
// RUN: vvp -N %t.d/inout.vvp > %t.d/icarus.trace
// RUN: diff %t.d/silica.trace %t.d/icarus.trace

// IR: hw.module @pad(inout %pin : i4, in %a : i4, in %b : i4, out y : i4)
// IR: hw.instance "pad0" @pad(pin: %bus: !hw.inout<i4>, a: %a: i4, b: %b: i4) -> (y: i4)

// CHECK-LABEL: module pad(
// CHECK-NEXT:    inout  [3:0] pin,
// CHECK-LABEL: module bus_top(
// CHECK-NEXT:    inout  [3:0] bus,
// CHECK:         pad pad0 (
// CHECK-NEXT:      .pin(bus),

hw.module @pad(inout %pin: i4, in %a: i4, in %b: i4, out y: i4) {
  %n = comb.add %a, %b : i4
  hw.output %n : i4
}
hw.module @bus_top(inout %bus: i4, in %a: i4, in %b: i4, out y: i4) {
  %y = hw.instance "pad0" @pad(pin: %bus: !hw.inout<i4>, a: %a: i4, b: %b: i4) -> (y: i4)
  hw.output %y : i4
}
