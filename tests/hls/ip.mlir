// --ip FILE.sv: a func.func declaration with hls.ip = "module" is bound to
// a hand-written Verilog module, its ports read with sv-parser and checked
// against the declaration; hls.latency is its latency and hls.ip_model
// the function the software side runs instead. The kernel calling it is
// co-simulated against the model; the design (with the module's text
// appended) passes Verilator's lint and yosys's synth_ice40.
// RUN: rm -rf %t
// RUN: silica hls %s --top dot -o %t --ip %S/ip/mac.sv --sim | FileCheck %s --check-prefix=SIM
// RUN: FileCheck %s --check-prefix=SV < %t/dot.sv
// RUN: FileCheck %s --check-prefix=HW < %t/dot.hw.mlir
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME -Wno-UNUSEDSIGNAL --top-module dot %t/dot.sv
// RUN: yosys -q -p "read_verilog -sv %t/dot.sv; synth_ice40 -dsp -top dot"
// Errors (module missing, ports that differ, no latency, a file that does
// not parse) are in ip-errors.mlir.

// SIM: co-simulation (seed 1): 17 values match, latency {{[0-9]+}} cycles
// SV: module dot(
// SV: mac_ip call0_mac_ip (
// SV: // --ip {{.*}}mac.sv
// SV: module mac_ip (
// HW: hw.module.extern @mac_ip(

func.func private @mac(i32 {hls.name = "a"}, i32 {hls.name = "b"}, i32 {hls.name = "c"}) -> i32
    attributes {hls.ip = "mac_ip", hls.latency = 3, hls.ip_model = @mac_model}

func.func @mac_model(%a: i32, %b: i32, %c: i32) -> i32 {
  %p = arith.muli %a, %b : i32
  %s = arith.addi %p, %c : i32
  return %s : i32
}

func.func @dot(%x: memref<8xi32> {hls.name = "X"}, %y: memref<8xi32> {hls.name = "Y"}) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = affine.for %i = 0 to 8 iter_args(%s = %c0) -> i32 {
    %u = affine.load %x[%i] : memref<8xi32>
    %v = affine.load %y[%i] : memref<8xi32>
    %t = func.call @mac(%u, %v, %s) : (i32, i32, i32) -> i32
    affine.yield %t : i32
  }
  return %r : i32
}
