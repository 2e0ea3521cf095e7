// Kernels through `silica hls`: a reduction over iter_args, a FIR filter
// (pipelined inner loop in a sequential outer one), a triangular loop
// (bounds over the outer induction variable), an on-chip RAM from
// memref.alloc (a histogram with a loop-carried memory dependence), and
// arbitrary widths (i7, i33). Each design lints clean in Verilator and
// synthesises for the iCE40; the reports give the II against its bounds;
// co-simulation against the software (lli-22) matches bit for bit, in as
// many cycles as the static schedule says.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica hls %s --top dot -o %t.d --sim | FileCheck %s --check-prefix=DOT
// RUN: verilator --lint-only -Wall %t.d/dot.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/dot.sv; synth_ice40 -dsp -top dot"
// RUN: silica hls %s --top fir -o %t.d --sim | FileCheck %s --check-prefix=FIR
// RUN: verilator --lint-only -Wall %t.d/fir.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/fir.sv; synth_ice40 -dsp -top fir"
// RUN: silica hls %s --top trisolv -o %t.d --sim | FileCheck %s --check-prefix=TRI
// RUN: verilator --lint-only -Wall %t.d/trisolv.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/trisolv.sv; synth_ice40 -dsp -top trisolv"
// RUN: silica hls %s --top hist -o %t.d --sim | FileCheck %s --check-prefix=HIST
// RUN: verilator --lint-only -Wall %t.d/hist.sv
// RUN: yosys -p "read_verilog -sv %t.d/hist.sv; synth_ice40 -top hist" | FileCheck %s --check-prefix=BRAM
// RUN: FileCheck %s --check-prefix=HIST-HW < %t.d/hist.hw.mlir
// RUN: silica hls %s --top widths -o %t.d --sim | FileCheck %s --check-prefix=WIDTHS
// RUN: FileCheck %s --check-prefix=WIDTHS-JSON < %t.d/widths.json
// RUN: verilator --lint-only -Wall %t.d/widths.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/widths.sv; synth_ice40 -dsp -top widths"
// Sequential (not pipelined) loops: more cycles, same interface.
// RUN: silica hls %s --top dot --no-pipeline -o %t.seq --sim --seed 5 | FileCheck %s --check-prefix=SEQ
// RUN: verilator --lint-only -Wall %t.seq/dot.sv

// DOT: co-simulation (seed 1): 65 values match, latency 34 cycles
// DOT: latency: 34 cycles ({{.*}}), measured by co-simulation
// DOT: dot/0: trip 32, pipelined, II 1 (ResMII 1, RecMII 1), depth 2
func.func @dot(%a: memref<32xi32>, %b: memref<32xi32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = affine.for %i = 0 to 32 iter_args(%acc = %c0) -> (i32) {
    %x = affine.load %a[%i] : memref<32xi32>
    %y = affine.load %b[%i] : memref<32xi32>
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    affine.yield %s : i32
  }
  return %r : i32
}

// FIR: co-simulation (seed 1): 80 values match, latency 321 cycles
// FIR: fir/n: trip 32, sequential
// FIR: fir/n/k: trip 8, pipelined, II 1 (ResMII 1, RecMII 1)
func.func @fir(%x: memref<40xi16> {hls.name = "x"}, %h: memref<8xi16> {hls.name = "h"},
               %y: memref<32xi32> {hls.name = "y"}) {
  affine.for %n = 0 to 32 {
    %z = arith.constant 0 : i32
    %acc = affine.for %k = 0 to 8 iter_args(%s = %z) -> (i32) {
      %xv = affine.load %x[%n + %k] : memref<40xi16>
      %hv = affine.load %h[%k] : memref<8xi16>
      %xe = arith.extsi %xv : i16 to i32
      %he = arith.extsi %hv : i16 to i32
      %p = arith.muli %xe, %he : i32
      %t = arith.addi %s, %p : i32
      affine.yield %t : i32
    } {hls.label = "k"}
    affine.store %acc, %y[%n] : memref<32xi32>
  } {hls.label = "n"}
  return
}

// The inner loop runs 0..9 times: the latency counts each outer
// iteration's own trip count.
// TRI: co-simulation (seed 1): 110 values match, latency 76 cycles
// TRI: trisolv/0/0: trip 9, pipelined, II 1
func.func @trisolv(%L: memref<10x10xi32>, %x: memref<10xi32>) {
  affine.for %i = 0 to 10 {
    %z = arith.constant 0 : i32
    %s = affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) iter_args(%acc = %z) -> (i32) {
      %l = affine.load %L[%i, %j] : memref<10x10xi32>
      %v = affine.load %x[%j] : memref<10xi32>
      %p = arith.muli %l, %v : i32
      %t = arith.addi %acc, %p : i32
      affine.yield %t : i32
    }
    %old = affine.load %x[%i] : memref<10xi32>
    %n = arith.subi %old, %s : i32
    affine.store %n, %x[%i] : memref<10xi32>
  }
  return
}

// The read-modify-write of buf[in[i] & 15] may hit the same word in
// consecutive iterations: RecMII 2.
// HIST: co-simulation (seed 1): 80 values match, latency 163 cycles
// HIST: hist/0: trip 16, pipelined, II 1
// HIST: hist/1: trip 64, pipelined, II 2 (ResMII 2, RecMII 2)
// HIST-HW: seq.firmem 1, 1, undefined, undefined : <16 x 32>
// BRAM: SB_RAM40_4K
func.func @hist(%in: memref<64xi8>, %out: memref<16xi32>) {
  %buf = memref.alloc() {hls.name = "buf"} : memref<16xi32>
  %z = arith.constant 0 : i32
  affine.for %i = 0 to 16 {
    affine.store %z, %buf[%i] : memref<16xi32>
  }
  affine.for %i = 0 to 64 {
    %v = affine.load %in[%i] : memref<64xi8>
    %m = arith.constant 15 : i8
    %b = arith.andi %v, %m : i8
    %idx = arith.index_castui %b : i8 to index
    %c = memref.load %buf[%idx] : memref<16xi32>
    %one = arith.constant 1 : i32
    %n = arith.addi %c, %one : i32
    memref.store %n, %buf[%idx] : memref<16xi32>
  }
  affine.for %i = 0 to 16 {
    %v = affine.load %buf[%i] : memref<16xi32>
    affine.store %v, %out[%i] : memref<16xi32>
  }
  return
}

// The i7 divui is a pipelined divider (two more cycles than one
// combinational divider: construct/divider_array.rs).
// WIDTHS: co-simulation (seed 1): 26 values match, latency 29 cycles
// WIDTHS: widths/0: trip 12, pipelined
// WIDTHS-JSON: "type": "memref<12xi7>",
// WIDTHS-JSON: "element_width": 7,
// WIDTHS-JSON: "type": "memref<12xi33>",
// WIDTHS-JSON: "element_width": 33,
// WIDTHS-JSON: "address_width": 4,
// WIDTHS-JSON: "name": "arg2",
// WIDTHS-JSON-NEXT: "kind": "scalar",
// WIDTHS-JSON-NEXT: "type": "i7",
// WIDTHS-JSON-NEXT: "width": 7
// WIDTHS-JSON: "name": "result0",
// WIDTHS-JSON-NEXT: "type": "i33",
func.func @widths(%a: memref<12xi7>, %b: memref<12xi33>, %k: i7) -> (i33, i7) {
  %z = arith.constant 0 : i33
  %z7 = arith.constant 0 : i7
  %r:2 = affine.for %i = 0 to 12 iter_args(%s = %z, %m = %z7) -> (i33, i7) {
    %x = affine.load %a[%i] : memref<12xi7>
    %y = affine.load %b[%i] : memref<12xi33>
    %xk = arith.muli %x, %k : i7
    %xe = arith.extsi %xk : i7 to i33
    %p = arith.addi %y, %xe : i33
    %c31 = arith.constant 31 : i33
    %amount = arith.andi %xe, %c31 : i33
    %q = arith.shrsi %p, %amount : i33
    %t = arith.xori %s, %q : i33
    %lt = arith.cmpi slt, %x, %m : i7
    %mx = arith.select %lt, %m, %x : i7
    %one = arith.constant 1 : i7
    %nonzero = arith.ori %x, %one : i7
    %d = arith.divui %xk, %nonzero : i7
    %de = arith.extui %d : i7 to i33
    affine.store %de, %b[%i] : memref<12xi33>
    affine.yield %t, %mx : i33, i7
  }
  return %r#0, %r#1 : i33, i7
}

// SEQ: co-simulation (seed 5): 65 values match, latency 65 cycles
// SEQ: dot/0: trip 32, sequential
