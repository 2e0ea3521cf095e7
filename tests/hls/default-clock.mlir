// Each target's default clock, from its operator library: listed in
// --help and named in the report. Every figure is labelled estimate or
// measured, the estimate's measured error beside it, and iCE40's logic
// cells and LUT4s are named apart. A design that misses the default
// after closure is written for the period it reaches, with a warning and
// nextpnr's Fmax (exit 0); a clock asked with --clock-ns stays an error
// when missed (bitstream.mlir).
// RUN: silica hls --help | FileCheck %s --check-prefix=HELP
// RUN: rm -rf %t.q
// RUN: silica hls %s --top q -o %t.q --target ice40-up5k --bitstream --closure-tries 0 2> %t.warn | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN < %t.warn
// RUN: test -s %t.q/q.bin
// RUN: FileCheck %s --check-prefix=JSON < %t.q/q.json

// A 32-bit divider on the UP5K: no stage of it fits 30 ns.
func.func @q(%a: i32, %b: i32) -> i32 {
  %c = arith.divsi %a, %b : i32
  return %c : i32
}

// HELP: --clock-ns <NS>
// HELP: ecp5-25k 20, {{.*}}ice40-up5k 30, ice40-hx8k 20

// CHECK: target ice40-up5k at 30 ns, its default clock (operator library measured on ice40-up5k)
// CHECK: resources (estimate): {{[1-9][0-9]*}} LC ({{[1-9][0-9]*}} LUT4), {{[0-9]+}} FF, 0 DSP, 0 BRAM
// CHECK: clock (estimate): {{[0-9.]+}} ns
// CHECK: estimate's measured error (placed PolyBench designs, docs/QOR.md): LC within 31%, Fmax within 26%, FF 33% median (up to 304%), DSP and BRAM exact
// CHECK: resources (measured by yosys and nextpnr, ice40-up5k sg48): {{[1-9][0-9]*}} LC ({{[1-9][0-9]*}} LUT4 in the netlist), {{[0-9]+}} FF, 0 DSP, 0 BRAM, 7 IO
// CHECK: Fmax: {{[0-9.]+}} MHz (nextpnr), {{.*}}; clock 30 ns (33.33 MHz) MISSED by {{[0-9.]+}} ns
// CHECK: bitstream: q.bin, for {{[0-9.]+}} ns ({{[0-9.]+}} MHz): the target's default clock of 30 ns is missed

// WARN: warning: the target's default clock of 30 ns is missed by {{[0-9.]+}} ns (nextpnr's Fmax {{[0-9.]+}} MHz); the bitstream is written for {{[0-9.]+}} ns

// JSON: "clock_ns": 30.0,
// JSON-NEXT: "clock_default": true,
// JSON: "estimate": {
// JSON-NEXT: "lut": {{[1-9][0-9]*}},
// JSON-NEXT: "lc": {{[1-9][0-9]*}},
// JSON: "estimate_error": {
// JSON-NEXT: "lut": 0.31,
// JSON-NEXT: "fmax": 0.26,
// JSON: "synthesis": {
// JSON: "lut": {{[1-9][0-9]*}},
// JSON-NEXT: "lc": {{[1-9][0-9]*}},
// JSON: "clock_met": false,
// JSON: "bitstream": "q.bin",
// JSON-NEXT: "reached_ns": {{[0-9.]+}},
