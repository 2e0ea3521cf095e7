// vadd: an innermost loop pipelined at II 1 with two loads and a store in
// flight; the outputs keep the port contract, lint clean in Verilator,
// synthesise for the iCE40, and the hw IR reads back into silica.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top vadd -o %t.d | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --check-prefix=JSON < %t.d/vadd.json
// RUN: FileCheck %s --check-prefix=SV < %t.d/vadd.sv
// RUN: verilator --lint-only -Wall %t.d/vadd.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/vadd.sv; synth_ice40 -dsp -top vadd"
// RUN: silica opt %t.d/vadd.hw.mlir | FileCheck %s --check-prefix=HW
// RUN: silica hls - --top vadd -o %t.stdin < %s > /dev/null
// RUN: cmp %t.d/vadd.sv %t.stdin/vadd.sv
// RUN: silica hls %s --top vadd -o %t.sim --sim --seed 3 | FileCheck %s --check-prefix=SIM
// SIM: co-simulation (seed 3): 48 values match, latency 18 cycles

// REPORT: latency: 18 cycles
// REPORT: vadd/i: trip 16, pipelined, II 1 (ResMII 1, RecMII 1), depth 2
// REPORT: 0: load#{{[0-9]+}} load#{{[0-9]+}}
// REPORT: 1: add#{{[0-9]+}} store#{{[0-9]+}}

// JSON: "top": "vadd",
// JSON: "interface": "memory",
// JSON: "target": "ecp5-25k",
// JSON: "name": "A",
// JSON-NEXT: "kind": "memory",
// JSON-NEXT: "type": "memref<16xi32>",
// JSON-NEXT: "shape": [
// JSON: "words": 16,
// JSON-NEXT: "address_width": 4,
// JSON-NEXT: "ports": 1,
// JSON-NEXT: "read_latency": 1,
// JSON-NEXT: "access": "read"
// JSON: "name": "C",
// JSON: "access": "write"
// JSON: "latency": {
// JSON-NEXT: "min": 18,
// JSON-NEXT: "max": 18
// JSON: "path": "vadd/i",
// JSON-NEXT: "trip_count": 16,
// JSON-NEXT: "pipelined": true,
// JSON-NEXT: "ii": 1,

// SV: module vadd(
// SV-NEXT: input clock,
// SV-NEXT: input reset,
// SV-NEXT: input start,
// SV-NEXT: output done,
// SV-NEXT: output idle,
// SV-NEXT: output [3:0] A_address0,
// SV-NEXT: output A_ce0,
// SV-NEXT: output A_we0,
// SV-NEXT: output [31:0] A_d0,
// SV-NEXT: input [31:0] A_q0,
// SV: output [3:0] C_address0,
// SV: input [31:0] C_q0 /* verilator lint_on UNUSEDSIGNAL */

// HW: hw.module @vadd(in %clock : !seq.clock, in %reset : i1, in %start : i1, out done : i1, out idle : i1, out A_address0 : i4
// HW: seq.compreg

func.func @vadd(%a: memref<16xi32> {hls.name = "A"}, %b: memref<16xi32> {hls.name = "B"},
                %c: memref<16xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xi32>
    %y = affine.load %b[%i] : memref<16xi32>
    %s = arith.addi %x, %y : i32
    affine.store %s, %c[%i] : memref<16xi32>
  } {hls.label = "i"}
  return
}
