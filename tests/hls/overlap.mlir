// Consecutive pipelines overlap where the memories allow
// (schedule/overlap.rs): a pipelined loop's state is left while its last
// iterations drain, and what follows starts meanwhile.
// near: the first loop writes y at step 1 and z at its last step; the
// second reads y (a true dependence at distance 0) and x: it starts
// while the first drains (69 -> 67 cycles; its lead is depth - 2).
// far: the second reads z, which the first writes at its last step: no
// overlap, the cycles of the full drain (69).
// rows: an inner pipeline entered 8 times; each entry's first iteration
// issues while the previous entry's last two drain (145 -> 131 cycles,
// the pipelines' bound). Its store address reads the outer counter,
// which the latch steps while the drain stores: the drain steps read it
// as it was when their iteration issued.
// sums: the row sum, carried and stored after the inner loop, is only
// final once the loop has drained: no overlap (145 cycles, as before).
// All co-simulated bit for bit; lint clean.
// RUN: rm -rf %t.near %t.far %t.rows %t.sums
// RUN: silica hls %s --top near -o %t.near --sim | FileCheck %s --check-prefix=NEAR
// RUN: FileCheck %s --check-prefix=NEAR-R < %t.near/report.txt
// RUN: silica hls %s --top far -o %t.far --sim | FileCheck %s --check-prefix=FAR
// RUN: FileCheck %s --check-prefix=FAR-R < %t.far/report.txt
// RUN: silica hls %s --top rows -o %t.rows --sim | FileCheck %s --check-prefix=ROWS
// RUN: FileCheck %s --check-prefix=ROWS-R < %t.rows/report.txt
// RUN: silica hls %s --top sums -o %t.sums --sim | FileCheck %s --check-prefix=SUMS
// RUN: FileCheck %s --check-prefix=SUMS-R < %t.sums/report.txt
// RUN: verilator --lint-only -Wall %t.near/near.sv
// RUN: verilator --lint-only -Wall %t.rows/rows.sv

// NEAR: co-simulation (seed 1): 128 values match, latency 67 cycles
// NEAR-R: latency: 67 cycles ({{.*}}), measured by co-simulation, as the static schedule gives
// NEAR-R: near/0: trip 32, pipelined, II 1 (ResMII 1, RecMII 1), depth 4
// NEAR-R: overlap: near/0 leaves its state 2 cycle(s) before it drains
func.func @near(%x: memref<32xi32> {hls.name = "x"}, %y: memref<32xi32> {hls.name = "y"},
                %z: memref<32xi32> {hls.name = "z"}, %w: memref<32xi32> {hls.name = "w"}) {
  affine.for %i = 0 to 32 {
    %a = affine.load %x[%i] : memref<32xi32>
    %b = arith.addi %a, %a : i32
    affine.store %b, %y[%i] : memref<32xi32>
    %p = arith.muli %a, %a : i32
    %q = arith.muli %p, %a : i32
    %r = arith.muli %q, %a : i32
    %s = arith.muli %r, %a : i32
    affine.store %s, %z[%i] : memref<32xi32>
  } {hls.pipeline = true}
  affine.for %i = 0 to 32 {
    %a = affine.load %y[%i] : memref<32xi32>
    %c = affine.load %x[%i] : memref<32xi32>
    %b = arith.subi %a, %c : i32
    affine.store %b, %w[%i] : memref<32xi32>
  } {hls.pipeline = true}
  return
}

// FAR: co-simulation (seed 1): 128 values match, latency 69 cycles
// FAR-R: latency: 69 cycles ({{.*}}), measured by co-simulation, as the static schedule gives
// FAR-R-NOT: overlap: far/0
func.func @far(%x: memref<32xi32> {hls.name = "x"}, %y: memref<32xi32> {hls.name = "y"},
               %z: memref<32xi32> {hls.name = "z"}, %w: memref<32xi32> {hls.name = "w"}) {
  affine.for %i = 0 to 32 {
    %a = affine.load %x[%i] : memref<32xi32>
    %b = arith.addi %a, %a : i32
    affine.store %b, %y[%i] : memref<32xi32>
    %p = arith.muli %a, %a : i32
    %q = arith.muli %p, %a : i32
    %r = arith.muli %q, %a : i32
    %s = arith.muli %r, %a : i32
    affine.store %s, %z[%i] : memref<32xi32>
  } {hls.pipeline = true}
  affine.for %i = 0 to 32 {
    %a = affine.load %z[%i] : memref<32xi32>
    %c = affine.load %x[%i] : memref<32xi32>
    %b = arith.subi %a, %c : i32
    affine.store %b, %w[%i] : memref<32xi32>
  } {hls.pipeline = true}
  return
}

// ROWS: co-simulation (seed 1): 256 values match, latency 131 cycles
// ROWS-R: latency: 131 cycles ({{.*}}), measured by co-simulation, as the static schedule gives
// ROWS-R: against the pipelines' bound (sum of iterations x MII + deepest depth = 131 cycles): 1.00x
// ROWS-R: overlap: rows/0/0 leaves its state 2 cycle(s) before it drains
func.func @rows(%A: memref<8x16xi32> {hls.name = "A"}, %C: memref<8x16xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<8x16xi32>
      %p = arith.muli %a, %a : i32
      %q = arith.muli %p, %a : i32
      affine.store %q, %C[%i, %j] : memref<8x16xi32>
    } {hls.pipeline = true}
  }
  return
}

// SUMS: co-simulation (seed 1): 136 values match, latency 145 cycles
// SUMS-R: latency: 145 cycles ({{.*}}), measured by co-simulation, as the static schedule gives
// SUMS-R-NOT: overlap: sums/0/0
func.func @sums(%A: memref<8x16xi32> {hls.name = "A"}, %S: memref<8xi32> {hls.name = "S"}) {
  %zero = arith.constant 0 : i32
  affine.for %i = 0 to 8 {
    %s = affine.for %j = 0 to 16 iter_args(%acc = %zero) -> i32 {
      %a = affine.load %A[%i, %j] : memref<8x16xi32>
      %p = arith.muli %a, %a : i32
      %n = arith.addi %acc, %p : i32
      affine.yield %n : i32
    } {hls.pipeline = true}
    affine.store %s, %S[%i] : memref<8xi32>
  }
  return
}
