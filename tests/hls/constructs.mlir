// Constant globals as ROMs and scf.while loops with data-dependent trip
// counts. ROMs: a table read in a pipelined loop, a splat 2-D global and a
// table of 5 words (padded to a power of two), each a constant hw.array
// read into a register (read latency 1 like the RAMs). scf.while: Collatz
// step counts (a while loop inside an affine.for, its trip count from the
// data), and a search whose before region loads from memory; the report
// gives the least latency statically, the co-simulation measures it.
// Each design co-simulates bit for bit, lints clean and synthesises.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica hls %s --top rom -o %t.d --sim | FileCheck %s --check-prefix=ROM
// RUN: FileCheck %s --check-prefix=ROM-HW < %t.d/rom.hw.mlir
// RUN: verilator --lint-only -Wall %t.d/rom.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/rom.sv; synth_ice40 -dsp -top rom"
// RUN: silica hls %s --top collatz -o %t.d --sim | FileCheck %s --check-prefix=COLLATZ
// RUN: verilator --lint-only -Wall %t.d/collatz.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/collatz.sv; synth_ice40 -dsp -top collatz"
// RUN: silica hls %s --top collatz -o %t.static
// RUN: FileCheck %s --check-prefix=STATIC < %t.static/collatz.json
// RUN: FileCheck %s --check-prefix=STATIC-TXT < %t.static/report.txt
// RUN: silica hls %s --top search -o %t.d --sim --sim-scalar key=100 | FileCheck %s --check-prefix=SEARCH
// RUN: verilator --lint-only -Wall %t.d/search.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/search.sv; synth_ice40 -dsp -top search"

// Two reads of @coef per iteration share its one port: II 2.
// ROM: co-simulation (seed 1): 32 values match
// ROM: rom/0: trip 16, pipelined, II 2 (ResMII 2, RecMII 1)
// ROM-HW: hw.array_create
// ROM-HW: hw.array_get
memref.global "private" constant @coef : memref<16xi16> = dense<[1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12, 13, -14, 15, -32768]>
memref.global "private" constant @bias : memref<2x3xi8> = dense<-5>
memref.global "private" constant @odd : memref<5xi32> = dense<[100, 200, 300, 400, 500]>
func.func @rom(%x: memref<16xi16>, %y: memref<16xi32>) {
  %c = memref.get_global @coef : memref<16xi16>
  %b = memref.get_global @bias : memref<2x3xi8>
  %o = memref.get_global @odd : memref<5xi32>
  %c2 = memref.get_global @coef : memref<16xi16>
  affine.for %i = 0 to 16 {
    %xv = affine.load %x[%i] : memref<16xi16>
    %cv = affine.load %c[%i] : memref<16xi16>
    %bv = affine.load %b[%i mod 2, %i mod 3] : memref<2x3xi8>
    %ov = affine.load %o[%i mod 5] : memref<5xi32>
    %rv = affine.load %c2[15 - %i] : memref<16xi16>
    %xe = arith.extsi %xv : i16 to i32
    %ce = arith.extsi %cv : i16 to i32
    %be = arith.extsi %bv : i8 to i32
    %re = arith.extsi %rv : i16 to i32
    %p = arith.muli %xe, %ce : i32
    %q = arith.addi %p, %be : i32
    %s = arith.addi %q, %ov : i32
    %t = arith.xori %s, %re : i32
    affine.store %t, %y[%i] : memref<16xi32>
  }
  return
}

// Steps of the Collatz iteration from (in[i] & 255) + 1 down to 1.
// COLLATZ: co-simulation (seed 1): 32 values match, latency [[LAT:[0-9]+]] cycles
// COLLATZ: latency: [[LAT]] cycles ({{.*}}), measured by co-simulation
// COLLATZ: collatz/i/w: trip ?, sequential
// STATIC: "latency": {
// STATIC-NEXT: "min": {{[1-9][0-9]*}},
// STATIC-NEXT: "max": null
// STATIC-TXT: latency: at least {{[0-9]+}} cycles ({{.*}}), data-dependent (scf.while)
func.func @collatz(%in: memref<16xi32>, %out: memref<16xi32>) {
  affine.for %i = 0 to 16 {
    %v = affine.load %in[%i] : memref<16xi32>
    %mask = arith.constant 255 : i32
    %one = arith.constant 1 : i32
    %zero = arith.constant 0 : i32
    %m = arith.andi %v, %mask : i32
    %start = arith.addi %m, %one : i32
    %r:2 = scf.while (%x = %start, %n = %zero) : (i32, i32) -> (i32, i32) {
      %more = arith.cmpi ugt, %x, %one : i32
      scf.condition(%more) %x, %n : i32, i32
    } do {
    ^bb0(%x: i32, %n: i32):
      %bit = arith.andi %x, %one : i32
      %odd = arith.cmpi ne, %bit, %zero : i32
      %half = arith.shrui %x, %one : i32
      %three = arith.constant 3 : i32
      %x3 = arith.muli %x, %three : i32
      %up = arith.addi %x3, %one : i32
      %next = arith.select %odd, %up, %half : i32
      %n1 = arith.addi %n, %one : i32
      scf.yield %next, %n1 : i32, i32
    } attributes {hls.label = "w"}
    affine.store %r#1, %out[%i] : memref<16xi32>
  } {hls.label = "i"}
  return
}

// The first position whose word is at least `key` (16 when none is): the
// before region loads, the do region only steps.
// SEARCH: co-simulation (seed 1): 17 values match
func.func @search(%a: memref<16xi8>, %key: i8 {hls.name = "key"}) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %j = arith.andi %i, %c15 : index
    %v = memref.load %a[%j] : memref<16xi8>
    %inside = arith.cmpi slt, %i, %c16 : index
    %below = arith.cmpi slt, %v, %key : i8
    %more = arith.andi %inside, %below : i1
    scf.condition(%more) %i : index
  } do {
  ^bb0(%i: index):
    %n = arith.addi %i, %c1 : index
    scf.yield %n : index
  }
  %ri = arith.index_cast %r : index to i32
  return %ri : i32
}
