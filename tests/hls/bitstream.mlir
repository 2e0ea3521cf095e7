// --bitstream: a small kernel through yosys, nextpnr and the packers to a
// bitstream on iCE40 (Debian's tools) and ECP5 (YoWASP's), with measured
// resources and Fmax in F.json and report.txt.
// RUN: rm -rf %t.ice40 %t.ecp5
// RUN: silica hls %s --top sum -o %t.ice40 --target ice40-up5k --clock-ns 50 --bitstream | FileCheck %s --check-prefix=ICE40
// RUN: test -s %t.ice40/sum.bin
// RUN: FileCheck %s --check-prefix=ICE40JSON < %t.ice40/sum.json
// RUN: test -s %t.ice40/sum.nextpnr.log && test -s %t.ice40/sum.yosys.log && test -s %t.ice40/sum.stat.json && test -s %t.ice40/sum.icetime.log
// RUN: silica hls %s --top sum -o %t.ecp5 --bitstream | FileCheck %s --check-prefix=ECP5
// RUN: test -s %t.ecp5/sum.bit
// RUN: FileCheck %s --check-prefix=ECP5JSON < %t.ecp5/sum.json

// A run without --bitstream leaves no bitstream of an earlier design.
// RUN: rm -rf %t.plain && mkdir -p %t.plain && touch %t.plain/sum.bin %t.plain/sum.bit
// RUN: silica hls %s --top sum -o %t.plain > /dev/null
// RUN: test ! -e %t.plain/sum.bin && test ! -e %t.plain/sum.bit && test -s %t.plain/sum.sv

// Ports beyond the package's pins (71 bits for the UP5K's 39): the core
// behind scan chains, seven pins; the wrapper lint-clean.
// RUN: rm -rf %t.scan
// RUN: silica hls %s --top vadd -o %t.scan --target ice40-up5k --clock-ns 50 --bitstream | FileCheck %s --check-prefix=SCAN
// RUN: test -s %t.scan/vadd.bin
// RUN: FileCheck %s --check-prefix=SCANJSON < %t.scan/vadd.json
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module vadd_scan %t.scan/vadd.scan.sv

// A missed clock: the reports say by how much and where, no bitstream is
// written and none is left from the run before, exit 1.
// RUN: not silica hls %s --top sum -o %t.ice40 --target ice40-up5k --clock-ns 5 --bitstream 2>&1 > %t.missed | FileCheck %s --check-prefix=MISSED
// RUN: FileCheck %s --check-prefix=MISSEDREPORT < %t.missed
// RUN: test ! -e %t.ice40/sum.bin && test -s %t.ice40/sum.json

// ICE40: target ice40-up5k at 50 ns
// ICE40: resources (measured by yosys and nextpnr, ice40-up5k sg48): {{[1-9][0-9]*}} LC ({{[1-9][0-9]*}} LUT4 in the netlist), {{[1-9][0-9]*}} FF, 0 DSP, 0 BRAM, 35 IO
// ICE40: Fmax: {{[1-9][0-9.]*}} MHz (nextpnr), {{[1-9][0-9.]*}} MHz (icetime, paths from and to pins included); clock 50 ns (20.00 MHz) met with {{[0-9.]+}} ns of slack
// ICE40: critical path (nextpnr, {{[0-9.]+}} ns):
// ICE40: bitstream: sum.bin

// ICE40JSON: "target": "ice40-up5k",
// ICE40JSON: "synthesis": {
// ICE40JSON-NEXT: "device": "ice40-up5k",
// ICE40JSON-NEXT: "package": "sg48",
// ICE40JSON-NEXT: "lut": {{[1-9][0-9]*}},
// ICE40JSON-NEXT: "lc": {{[1-9][0-9]*}},
// ICE40JSON-NEXT: "ff": {{[1-9][0-9]*}},
// ICE40JSON-NEXT: "dsp": 0,
// ICE40JSON-NEXT: "bram": 0,
// ICE40JSON-NEXT: "io": 35,
// ICE40JSON-NEXT: "port_bits": 35,
// ICE40JSON-NEXT: "fmax_mhz": {{[1-9][0-9.]*}},
// ICE40JSON-NEXT: "icetime_fmax_mhz": {{[1-9][0-9.]*}},
// ICE40JSON-NEXT: "clock_ns": 50.0,
// ICE40JSON-NEXT: "clock_met": true,
// ICE40JSON: "bitstream": "sum.bin"

// ECP5: target ecp5-25k at 20 ns
// ECP5: resources (measured by yosys and nextpnr, ecp5-25k CABGA381): {{[1-9][0-9]*}} LUT, {{[1-9][0-9]*}} FF, 1 DSP, 0 BRAM, 35 IO
// ECP5: Fmax: {{[1-9][0-9.]*}} MHz (nextpnr); clock 20 ns (50.00 MHz) met
// ECP5: bitstream: sum.bit

// ECP5JSON: "synthesis": {
// ECP5JSON-NEXT: "device": "ecp5-25k",
// ECP5JSON: "dsp": 1,
// ECP5JSON: "fmax_mhz": {{[1-9][0-9.]*}},
// ECP5JSON-NOT: icetime
// ECP5JSON: "clock_met": true,
// ECP5JSON: "bitstream": "sum.bit"

// SCAN: resources (measured by yosys and nextpnr, ice40-up5k sg48): {{[1-9][0-9]*}} LC ({{[1-9][0-9]*}} LUT4 in the netlist), {{[1-9][0-9]*}} FF, 0 DSP, 0 BRAM, 7 IO
// SCAN-NEXT: ports: 71 bits, more than the package's pins: the core is behind scan chains (vadd_scan: 24 input and 42 output bits, their flip-flops counted above)
// SCAN: bitstream: vadd.bin
// SCANJSON: "io": 7,
// SCANJSON-NEXT: "port_bits": 71,
// SCANJSON-NEXT: "scan": {
// SCANJSON-NEXT: "module": "vadd_scan",
// SCANJSON-NEXT: "input_bits": 24,
// SCANJSON-NEXT: "output_bits": 42

// MISSED: error: the clock of 5 ns is missed by {{[0-9.]+}} ns (nextpnr's Fmax {{[0-9.]+}} MHz); no bitstream written, the critical path is in report.txt
// MISSEDREPORT: clock 5 ns (200.00 MHz) MISSED by {{[0-9.]+}} ns
// MISSEDREPORT: critical path (nextpnr, {{[0-9.]+}} ns): {{.+}} -> {{.+}}, through
// MISSEDREPORT: bitstream: none (the clock is missed)

func.func @sum(%a: memref<16xi8> {hls.name = "A"}) -> i8 {
  %c0 = arith.constant 0 : i8
  %r = affine.for %i = 0 to 16 iter_args(%s = %c0) -> i8 {
    %x = affine.load %a[%i] : memref<16xi8>
    %m = arith.muli %x, %x : i8
    %t = arith.addi %s, %m : i8
    affine.yield %t : i8
  }
  return %r : i8
}

func.func @vadd(%a: memref<16xi8> {hls.name = "A"}, %b: memref<16xi8> {hls.name = "B"},
                %c: memref<16xi8> {hls.name = "C"}) {
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xi8>
    %y = affine.load %b[%i] : memref<16xi8>
    %s = arith.addi %x, %y : i8
    affine.store %s, %c[%i] : memref<16xi8>
  }
  return
}
