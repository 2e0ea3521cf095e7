// --bitstream refusals: a clear message with the numbers, exit 1, and no
// output (nor a bitstream from an earlier run) left behind.
// RUN: rm -rf %t.d %t.e
// RUN: not silica hls %s --top muls -o %t.d --target generic --bitstream 2>&1 | FileCheck %s --check-prefix=GENERIC
// RUN: not silica hls %s --top muls -o %t.d --target ecp5-12k 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not env PATH=/nonexistent silica hls %s --top muls -o %t.d --target ice40-hx8k --bitstream 2>&1 | FileCheck %s --check-prefix=TOOL
// RUN: test ! -e %t.d

// A design that does not fit the device: the message, exit 1, no
// bitstream (none left from an earlier run either), and the reports say
// by how much (`--no-fit`: built as given, without the shared units that
// would fit it, `tests/hls/fit.mlir`).
// RUN: mkdir -p %t.d && touch %t.d/muls.bin %t.d/muls.bit
// RUN: not silica hls %s --top muls -o %t.d --target ice40-up5k --clock-ns 100 --bitstream --no-fit 2>&1 >/dev/null | FileCheck %s --check-prefix=DSP
// RUN: test ! -e %t.d/muls.bin && test ! -e %t.d/muls.bit
// RUN: FileCheck %s --check-prefix=DSPREPORT < %t.d/report.txt
// RUN: FileCheck %s --check-prefix=DSPJSON < %t.d/muls.json

// DSPs are counted exactly: one over the device is refused before yosys.
// DSP: warning: the design's estimate needs 9 DSP, and ice40-up5k holds 8 (the estimate counts DSPs exactly): --bitstream refuses it
// DSP: error: the design does not fit ice40-up5k: its estimate needs 9 DSP of 8 (112%) (the estimate counts DSPs exactly), so it is not synthesised; no bitstream written, the estimate's figures are in report.txt
// DSPREPORT: resources (the estimate, ice40-up5k sg48): {{[1-9][0-9]*}} LC of 5280 ({{[0-9]+}}%), {{[1-9][0-9]*}} FF of 5280 ({{[0-9]+}}%), 0 BRAM of 30 (0%), 9 DSP of 8 (112%), not synthesised
// DSPREPORT-NEXT: the design does not fit ice40-up5k: its estimate needs 9 DSP of 8 (112%) (the estimate counts DSPs exactly), so it is not synthesised
// DSPREPORT-NEXT: bitstream: none (the design does not fit)
// DSPJSON: "synthesis": {
// DSPJSON: "dsp": 9,
// DSPJSON: "fmax_mhz": null,
// DSPJSON: "clock_met": false,
// DSPJSON: "bitstream": null,
// DSPJSON-NEXT: "netlist": [
// DSPJSON: "what": "DSP",
// DSPJSON-NEXT: "used": 9,
// DSPJSON-NEXT: "available": 8
// DSPJSON: "overflow": "the design does not fit ice40-up5k: its estimate needs 9 DSP of 8 (112%) (the estimate counts DSPs exactly), so it is not synthesised"
// A design whose estimate is many times the device (two 64-bit dividers,
// 37,732 LUTs estimated, 7 times the UP5K's): refused before yosys, which
// would take long, with the estimate's figures in the reports (built as
// given, `--no-fit`: fitting shares the dividers, to 8,495 LUTs by yosys).
// RUN: mkdir -p %t.e && touch %t.e/divs.bin
// RUN: not silica hls %s --top divs -o %t.e --target ice40-up5k --clock-ns 30 --bitstream --no-fit 2>&1 >/dev/null | FileCheck %s --check-prefix=EST
// RUN: test ! -e %t.e/divs.bin && test ! -e %t.e/divs.yosys.log
// RUN: FileCheck %s --check-prefix=ESTREPORT < %t.e/report.txt
// RUN: FileCheck %s --check-prefix=ESTJSON < %t.e/divs.json

// EST: error: the design does not fit ice40-up5k: its estimate needs 37732 LC of 5280 (715%), more than 4 times the device, so it is not synthesised; no bitstream written, the estimate's figures are in report.txt
// ESTREPORT: resources (the estimate, ice40-up5k sg48): 37732 LC of 5280 (715%), {{[1-9][0-9]*}} FF of 5280 ({{[0-9]+}}%), 0 BRAM of 30 (0%), 0 DSP of 8 (0%), not synthesised
// ESTREPORT-NEXT: the design does not fit ice40-up5k: its estimate needs 37732 LC of 5280 (715%)
// ESTREPORT-NEXT: bitstream: none (the design does not fit)
// ESTJSON: "synthesis": {
// ESTJSON: "lc": 37732,
// ESTJSON: "bitstream": null,
// ESTJSON: "from_estimate": true,
// ESTJSON-NEXT: "overflow": "the design does not fit ice40-up5k: its estimate needs 37732 LC of 5280 (715%), more than 4 times the device, so it is not synthesised"

// GENERIC: error: target 'generic' gives estimates only and no bitstream; choose a device: ecp5-25k, ecp5-45k, ecp5-85k, ice40-up5k, ice40-hx8k
// TARGET: error: unknown target 'ecp5-12k'; known targets: ecp5-25k, ecp5-45k, ecp5-85k, ice40-up5k, ice40-hx8k, generic
// TOOL: error: `yosys` is not installed (needed for --bitstream); install it with `sudo apt-get install yosys` (or `bash scripts/install-tools.sh`, which installs every tool the tests use)

// Nine 16-bit products: one more than the UP5K's eight DSPs.
func.func @muls(%a: memref<2xi4> {hls.name = "A"}) -> i16 {
  %x = affine.load %a[0] : memref<2xi4>
  %y = arith.extsi %x : i4 to i16
  %p1 = arith.muli %y, %y : i16
  %p2 = arith.muli %p1, %y : i16
  %p3 = arith.muli %p2, %p1 : i16
  %p4 = arith.muli %p3, %p2 : i16
  %p5 = arith.muli %p4, %p3 : i16
  %p6 = arith.muli %p5, %p4 : i16
  %p7 = arith.muli %p6, %p5 : i16
  %p8 = arith.muli %p7, %p6 : i16
  %p9 = arith.muli %p8, %p7 : i16
  return %p9 : i16
}

// Two 64-bit divisions.
func.func @divs(%a: i64, %b: i64, %c: i64, %d: i64) -> i64 {
  %q1 = arith.divui %a, %b : i64
  %q2 = arith.divui %c, %d : i64
  %s = arith.addi %q1, %q2 : i64
  return %s : i64
}
