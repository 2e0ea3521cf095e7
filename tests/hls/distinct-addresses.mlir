// Accesses of one memory at provably distinct addresses (affine forms
// whose difference is a non-zero constant, analysis/deps.rs
// `distinct_addresses`) are not ordered by the block scheduler; those
// at the same or unknown addresses are. consts: 8 products stored at
// y[0..7] on two ports take 4 states, not 8 (8 cycles; 9, and 13 with
// every pair ordered, when the products by 3 were multipliers); the load of y[2] still follows the store of y[2], and
// the store of y[7] follows both. rows: after the j loop, the stores
// of A[i][0..2] and the load of A[i][3] share two ports (65 cycles, 81
// ordered); the load and store of A[i][3] stay in order. Co-simulated
// bit for bit; lint clean; accepted by yosys.
// RUN: rm -rf %t.c %t.r
// RUN: silica hls %s --top consts -o %t.c --sim | FileCheck %s --check-prefix=CONSTS
// RUN: verilator --lint-only -Wall %t.c/consts.sv
// RUN: yosys -q -p "read_verilog -sv %t.c/consts.sv; synth_ice40 -dsp -top consts"
// RUN: silica hls %s --top rows -o %t.r --sim | FileCheck %s --check-prefix=ROWS
// RUN: verilator --lint-only -Wall %t.r/rows.sv

// CONSTS: co-simulation (seed 1): 16 values match, latency 8 cycles
func.func @consts(%x: memref<8xi32> {hls.name = "x", hls.ports = 2},
    %y: memref<8xi32> {hls.name = "y", hls.ports = 2}) {
  %c3 = arith.constant 3 : i32
  %x0 = affine.load %x[0] : memref<8xi32>
  %p0 = arith.muli %x0, %c3 : i32
  affine.store %p0, %y[0] : memref<8xi32>
  %x1 = affine.load %x[1] : memref<8xi32>
  %p1 = arith.muli %x1, %c3 : i32
  affine.store %p1, %y[1] : memref<8xi32>
  %x2 = affine.load %x[2] : memref<8xi32>
  %p2 = arith.muli %x2, %c3 : i32
  affine.store %p2, %y[2] : memref<8xi32>
  %x3 = affine.load %x[3] : memref<8xi32>
  %p3 = arith.muli %x3, %c3 : i32
  affine.store %p3, %y[3] : memref<8xi32>
  %x4 = affine.load %x[4] : memref<8xi32>
  %p4 = arith.muli %x4, %c3 : i32
  affine.store %p4, %y[4] : memref<8xi32>
  %x5 = affine.load %x[5] : memref<8xi32>
  %p5 = arith.muli %x5, %c3 : i32
  affine.store %p5, %y[5] : memref<8xi32>
  %x6 = affine.load %x[6] : memref<8xi32>
  %p6 = arith.muli %x6, %c3 : i32
  affine.store %p6, %y[6] : memref<8xi32>
  %x7 = affine.load %x[7] : memref<8xi32>
  %p7 = arith.muli %x7, %c3 : i32
  affine.store %p7, %y[7] : memref<8xi32>
  // y[2] as just stored; y[7] becomes it plus y[5] (memref.loads, which
  // the front's store-to-load forwarding, affine accesses only, leaves
  // loads of memory).
  %i2 = arith.constant 2 : index
  %i5 = arith.constant 5 : index
  %r2 = memref.load %y[%i2] : memref<8xi32>
  %r5 = memref.load %y[%i5] : memref<8xi32>
  %s = arith.addi %r2, %r5 : i32
  affine.store %s, %y[7] : memref<8xi32>
  return
}

// ROWS: co-simulation (seed 1): 40 values match, latency 65 cycles
// ROWS: rows/i: trip 8, sequential
func.func @rows(%a: memref<8x4xi32> {hls.name = "A", hls.ports = 2},
    %b: memref<8xi32> {hls.name = "B"}) {
  %c0 = arith.constant 0 : i32
  affine.for %i = 0 to 8 {
    %s = affine.for %j = 0 to 4 iter_args(%acc = %c0) -> (i32) {
      %v = affine.load %a[%i, %j] : memref<8x4xi32>
      %n = arith.addi %acc, %v : i32
      affine.yield %n : i32
    } {hls.label = "j"}
    affine.store %s, %a[%i, 0] : memref<8x4xi32>
    affine.store %s, %a[%i, 1] : memref<8x4xi32>
    affine.store %s, %a[%i, 2] : memref<8x4xi32>
    %w = affine.load %a[%i, 3] : memref<8x4xi32>
    %t = arith.addi %w, %s : i32
    affine.store %t, %a[%i, 3] : memref<8x4xi32>
    affine.store %t, %b[%i] : memref<8xi32>
  } {hls.label = "i"}
  return
}
