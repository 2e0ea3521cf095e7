// Partitioned on-chip arrays: cyclic (a loop unrolled by 4 writes the
// four banks in one iteration at II 1, each at a bank known statically;
// a load at a data-dependent index reads every bank and selects), block
// (two halves read in one cycle; stores whose block is not known write
// with a predicate per bank) and complete (one-word banks, registers
// after synthesis); a partition of an external memref is a warning.
// Co-simulated bit for bit; lint clean; accepted by yosys.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top part -o %t.d --sim --sim-scalar k=7 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=WARN < %t.err
// RUN: verilator --lint-only -Wall %t.d/part.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/part.sv; synth_ice40 -top part"

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
