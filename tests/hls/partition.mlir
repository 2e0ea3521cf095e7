// Partitioned on-chip arrays: cyclic (a loop unrolled by 4 writes the
// four banks in one iteration at II 1, each at a bank known statically;
// a load at a data-dependent index reads every bank and selects), block
// (two halves read in one cycle; stores whose block is not known write
// with a predicate per bank) and complete (one-word banks, registers
// after synthesis), along two dimensions at once; a partition of an
// external memref is a warning.
// Co-simulated bit for bit; lint clean; accepted by yosys.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top part -o %t.d --sim --sim-scalar k=7 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=WARN < %t.err
// RUN: verilator --lint-only -Wall %t.d/part.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/part.sv; synth_ice40 -dsp -top part"
// RUN: rm -rf %t.g
// RUN: silica hls %s --top grid -o %t.g --sim --sim-scalar r=13 --sim-scalar c=6 | FileCheck %s --check-prefix=GRID
// RUN: verilator --lint-only -Wall %t.g/grid.sv
// RUN: yosys -q -p "read_verilog -sv %t.g/grid.sv; synth_ice40 -dsp -top grid"

// CHECK: co-simulation (seed 1): 65 values match, latency 64 cycles
// CHECK: part/0: trip 8, pipelined, II 1 (ResMII 1, RecMII 1)
// CHECK: part/2: trip 16, pipelined, II 1 (ResMII 1, RecMII 1)
// CHECK: directives:
// CHECK: blk: partition block dim 1 factor 2 (attribute): honoured: 2 banks of 16
// CHECK-NEXT: buf: partition cyclic dim 1 factor 4 (attribute): honoured: 4 banks of 8
// CHECK: reg: partition complete dim 1 (attribute): honoured: 4 banks of 1

// WARN: partition.mlir:[[# @LINE + 1]]:17: warning: partition cyclic dim 1 factor 2 on a is not honoured: partitioning applies to on-chip arrays, and this is an external memory
func.func @part(%a: memref<32xi32> {hls.name = "a", hls.partition = {kind = "cyclic", factor = 2}}, %b: memref<32xi32> {hls.name = "b", hls.ports = 2}, %k: i8 {hls.name = "k"}) -> i32 {
  %buf = memref.alloc() {hls.name = "buf", hls.partition = {kind = "cyclic", factor = 4}} : memref<32xi32>
  %blk = memref.alloc() {hls.name = "blk", hls.partition = {kind = "block", factor = 2}} : memref<32xi32>
  %reg = memref.alloc() {hls.name = "reg", hls.partition = {kind = "complete"}} : memref<4xi32>
  affine.for %i = 0 to 32 {
    %v = arith.index_cast %i : index to i32
    affine.store %v, %buf[%i] : memref<32xi32>
  } {hls.unroll = 4}
  affine.for %i = 0 to 32 {
    %v = affine.load %a[%i] : memref<32xi32>
    affine.store %v, %blk[%i] : memref<32xi32>
  }
  affine.for %i = 0 to 4 {
    %v = affine.load %buf[%i * 8] : memref<32xi32>
    affine.store %v, %reg[%i] : memref<4xi32>
  } {hls.unroll = "full"}
  %z = arith.constant 0 : i32
  %r = affine.for %i = 0 to 16 iter_args(%acc = %z) -> (i32) {
    %x = affine.load %blk[%i] : memref<32xi32>
    %y = affine.load %blk[%i + 16] : memref<32xi32>
    %kk = arith.index_castui %k : i8 to index
    %j = affine.apply affine_map<(d0)[s0] -> ((d0 + s0) mod 32)>(%i)[%kk]
    %w = memref.load %buf[%j] : memref<32xi32>
    %q = affine.load %reg[%i mod 4] : memref<4xi32>
    %s = arith.addi %x, %y : i32
    %t = arith.addi %s, %w : i32
    %u = arith.addi %t, %q : i32
    affine.store %u, %b[%i] : memref<32xi32>
    %n = arith.addi %acc, %u : i32
    affine.yield %n : i32
  }
  return %r : i32
}

// Split along both dimensions: 2 x 4 banks. The nest writes a 2x4 block
// an iteration (i jammed by 2, j unrolled by 4), each store at a bank
// known in both dimensions; a read at data-dependent indices reaches
// every bank and selects.
// GRID: co-simulation (seed 1): 65 values match, latency 79 cycles
// GRID: grid/0: trip 4, sequential
// GRID: grid/0/0: trip 2, pipelined, II 1 (ResMII 1, RecMII 1)
// GRID: g: partition cyclic dim 1 factor 2, partition cyclic dim 2 factor 4 (attribute): honoured: 8 banks of 4x2
func.func @grid(%y: memref<8x8xi32> {hls.name = "y"},
                %r: i32 {hls.name = "r"}, %c: i32 {hls.name = "c"}) -> i32 {
  %g = memref.alloc() {hls.name = "g", hls.partition = [{dim = 1, kind = "cyclic", factor = 2}, {dim = 2, kind = "cyclic", factor = 4}]} : memref<8x8xi32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %e = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i, %j)
      %v = arith.index_cast %e : index to i32
      %w = arith.muli %v, %v : i32
      affine.store %w, %g[%i, %j] : memref<8x8xi32>
    } {hls.unroll = 4}
  } {hls.jam = 2}
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %v = affine.load %g[%i, 7 - %j] : memref<8x8xi32>
      affine.store %v, %y[%i, %j] : memref<8x8xi32>
    }
  }
  %ri = arith.index_cast %r : i32 to index
  %ci = arith.index_cast %c : i32 to index
  %c8 = arith.constant 8 : index
  %rm = arith.remui %ri, %c8 : index
  %cm = arith.remui %ci, %c8 : index
  %s = memref.load %g[%rm, %cm] : memref<8x8xi32>
  return %s : i32
}
