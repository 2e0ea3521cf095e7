// --interface axi: the core wrapped in axpy_axi, an AXI4-Lite register map
// (ap_ctrl at 0x00..0x0C, then the arguments: 64-bit base addresses of
// the memrefs, an index and an i40 in two words each, the result read
// only) and an AXI4 master that copies the memrefs between host memory
// and on-chip RAMs around the core's run. The co-simulation drives the
// wrapper through its AXI ports against a memory model (random stalls):
// every register is read back through AXI-Lite and checked against the
// header and the JSON, the outputs match the software bit for bit.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top axpy -o %t.d --interface axi --sim --sim-scalar n=6 | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.d/axpy.json
// RUN: FileCheck %s --check-prefix=HEADER < %t.d/axpy.h
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module axpy_axi %t.d/axpy.sv
// RUN: not silica hls %s --top wide -o %t.bad --interface axi 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not silica hls %s --top clash -o %t.bad --interface axi 2>&1 | FileCheck %s --check-prefix=CLASH
// RUN: not test -e %t.bad
// With --bitstream, fpga::implement synthesizes the core (not axpy_axi)
// behind the scan wrapper when its ports outnumber the pins: the
// estimate counts the core and that wrapper under --interface axi as
// with the memory interface, the same LUTs, flip-flops and clock (548
// FF both, the flip-flops yosys keeps, of 709 register bits built; the
// AXI wrapper's LUTs and paths would give 3,399 LUT and 93.88 ns against
// 894 and 55.82), and the report says what it counts.
// RUN: silica hls %s --top axpy -o %t.m --target ice40-up5k --clock-ns 20 > %t.est
// RUN: silica hls %s --top axpy -o %t.e --interface axi --target ice40-up5k --clock-ns 20 >> %t.est
// RUN: FileCheck %s --check-prefix=EST < %t.est

// EST: resources (estimate): [[LUT:[0-9]+]] LC ([[LUT4:[0-9]+]] LUT4), 548 FF, [[DSP:[0-9]+]] DSP
// EST-NEXT: clock (estimate): [[CLOCK:[0-9.]+]] ns
// EST-NEXT: estimate counts: the core 'axpy' and its scan wrapper (its ports outnumber the package's pins), as --bitstream builds it{{$}}
// EST: resources (estimate): [[LUT]] LC ([[LUT4]] LUT4), 548 FF, [[DSP]] DSP
// EST-NEXT: clock (estimate): [[CLOCK]] ns
// EST-NEXT: estimate counts: the core 'axpy' and its scan wrapper (its ports outnumber the package's pins), as --bitstream builds it; not the AXI wrapper 'axpy_axi', which --bitstream does not build
// CHECK: co-simulation (seed 1): 25 values match, latency {{[0-9]+}} cycles
// CHECK-NEXT: axi: 3 read bursts, 1 write bursts, 72 bytes, 0 error responses

// JSON: "interface": "axi",
// JSON: "axi": {
// JSON-NEXT: "module": "axpy_axi",
// JSON-NEXT: "lite_address_width": 6,
// JSON: "master_data_width": 64,
// JSON: "control_bits": {
// JSON: "ap_done": 1,
// JSON: "name": "x",
// JSON-NEXT: "offset": 16,
// JSON-NEXT: "words": 2,
// JSON-NEXT: "width": 64,
// JSON-NEXT: "kind": "base",
// JSON: "name": "k",
// JSON-NEXT: "offset": 48,
// JSON-NEXT: "words": 2,
// JSON-NEXT: "width": 40,
// JSON-NEXT: "kind": "scalar",
// JSON: "name": "result0",
// JSON-NEXT: "offset": 56,
// JSON-NEXT: "words": 1,
// JSON-NEXT: "width": 32,
// JSON-NEXT: "kind": "result",

// HEADER: #define AXPY_CONTROL 0x00u
// HEADER: #define AXPY_CONTROL_AP_START (1u << 0)
// HEADER: #define AXPY_ISR 0x0cu
// HEADER: #define AXPY_ARG_X 0x10u
// HEADER: #define AXPY_ARG_N 0x28u
// HEADER: #define AXPY_ARG_K_WIDTH 40u
// HEADER: #define AXPY_RESULT0 0x38u
// HEADER: {"k", 0x30u, 2u, 40u, 1},
// HEADER: {"result0", 0x38u, 1u, 32u, 0},

// WIDE: axi.mlir:[[@LINE+1]]:1: error: argument 0 ('w') has 128-bit elements: the AXI master moves elements of at most 64 bits
func.func @wide(%w: memref<4xi128> {hls.name = "w"}) {
  return
}

// CLASH: axi.mlir:[[@LINE+1]]:1: error: 'a' and 'A' would both be CLASH_ARG_A in clash.h: rename one with 'hls.name'
func.func @clash(%a: i8 {hls.name = "a"}, %b: i8 {hls.name = "A"}) {
  return
}

// out[i] = x[i] * k + y[i] (to 16 bits) for i < n; returns the sum.
func.func @axpy(%x: memref<8xi8> {hls.name = "x"}, %y: memref<8xi32> {hls.name = "y"},
                %out: memref<8xi16> {hls.name = "out"}, %n: index {hls.name = "n"},
                %k: i40 {hls.name = "k"}) -> i32 {
  %c0 = arith.constant 0 : i32
  %kk = arith.trunci %k : i40 to i32
  %r = affine.for %i = 0 to %n iter_args(%acc = %c0) -> (i32) {
    %a = affine.load %x[%i] : memref<8xi8>
    %a32 = arith.extsi %a : i8 to i32
    %b = affine.load %y[%i] : memref<8xi32>
    %p = arith.muli %a32, %kk : i32
    %s = arith.addi %p, %b : i32
    %t = arith.trunci %s : i32 to i16
    affine.store %t, %out[%i] : memref<8xi16>
    %acc2 = arith.addi %acc, %s : i32
    affine.yield %acc2 : i32
  }
  return %r : i32
}
