// Loads carried across iterations (front/carry.rs) under `affine.if`s and
// in loops without a constant trip count. cond: a 3-point f32 stencil
// whose outer points are read only where they exist (`affine.if` on the
// counter: taken inside, not taken at either end); A[i] and A[i+1] pass
// to the next iteration, A[i+1] is loaded once per iteration outside the
// `if` (guarded: at the last iteration it is past the array, the guard
// gives zero, which no iteration reads): 3 loads -> 1, II 3 -> 1. triangle: a
// triangular nest (j from i to 16) whose inner loop runs no iteration
// for i = 16 and 17; A[j] passes on, so 2 loads -> 1, II 2 -> 1; the
// element loaded before the loop is guarded, as for i = 17 it would be
// A[17], past the array (the testbench fails on such an address).
// Co-simulated bit for bit; lint clean (Verilator wants one module per
// file of its name, DECLFILENAME: the float adder is a module of its
// own); accepted by yosys.
// RUN: rm -rf %t.c %t.t
// RUN: silica hls %s --top cond -o %t.c --sim | FileCheck %s --check-prefix=COND
// RUN: FileCheck %s --check-prefix=COND-REPORT < %t.c/report.txt
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module cond %t.c/cond.sv
// RUN: yosys -q -p "read_verilog -sv %t.c/cond.sv; synth_ice40 -dsp -top cond"
// RUN: silica hls %s --top triangle -o %t.t --sim | FileCheck %s --check-prefix=TRI
// RUN: FileCheck %s --check-prefix=TRI-REPORT < %t.t/report.txt
// RUN: verilator --lint-only -Wall %t.t/triangle.sv
// RUN: yosys -q -p "read_verilog -sv %t.t/triangle.sv; synth_ice40 -dsp -top triangle"
// RUN: rm -rf %t.u
// RUN: silica hls %s --top copies -o %t.u --sim | FileCheck %s --check-prefix=COPIES
// RUN: FileCheck %s --check-prefix=COPIES-REPORT < %t.u/report.txt

// COND: co-simulation (seed 1): 64 values match
// COND: cond/0: trip 32, pipelined, II 1 (ResMII 1, RecMII 1)
// COND-REPORT: note: loads carried across iterations (rotating registers): cond/0: 3 -> 1 loads per iteration, 2 element(s) carried{{$}}
func.func @cond(%a: memref<32xf32> {hls.name = "A"}, %b: memref<32xf32> {hls.name = "B"}) {
  affine.for %i = 0 to 32 {
    %m = affine.load %a[%i] : memref<32xf32>
    %r = affine.if affine_set<(d0) : (30 - d0 >= 0)>(%i) -> f32 {
      %x = affine.load %a[%i + 1] : memref<32xf32>
      affine.yield %x : f32
    } else {
      affine.yield %m : f32
    }
    %l = affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%i) -> f32 {
      %x = affine.load %a[%i - 1] : memref<32xf32>
      affine.yield %x : f32
    } else {
      affine.yield %m : f32
    }
    %s = arith.addf %l, %m : f32
    %t = arith.addf %s, %r : f32
    affine.store %t, %b[%i] : memref<32xf32>
  }
  return
}

// TRI: co-simulation (seed 1): {{[0-9]+}} values match
// TRI: triangle/0/0: {{.*}}pipelined, II 1 (ResMII 1, RecMII 1)
// TRI-REPORT: note: loads carried across iterations (rotating registers): triangle/0/0: 2 -> 1 loads per iteration, 1 element(s) carried{{$}}
func.func @triangle(%a: memref<17xi32> {hls.name = "A"}, %b: memref<18x16xi32> {hls.name = "B"}) {
  affine.for %i = 0 to 18 {
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to 16 {
      %x = affine.load %a[%j] : memref<17xi32>
      %y = affine.load %a[%j + 1] : memref<17xi32>
      %p = arith.muli %x, %y : i32
      affine.store %p, %b[%i, %j] : memref<18x16xi32>
    }
  }
  return
}

// copies: full unrolling of t copies the stencil loop (and its on-chip
// buffer); the copy, which the input does not have, is named in the note
// by its path in the flow's copy, as in the report's loops.
// COPIES: co-simulation (seed 1): 16 values match
// COPIES-REPORT: note: loads carried across iterations (rotating registers): copies/t/1: 3 -> 1 loads per iteration, 2 element(s) carried; copies/3: 3 -> 1 loads per iteration, 2 element(s) carried{{$}}
func.func @copies(%a: memref<8xi32> {hls.name = "A"}, %b: memref<8xi32> {hls.name = "B"}) {
  affine.for %t = 0 to 2 {
    %buf = memref.alloca() : memref<8xi32>
    affine.for %i = 0 to 8 {
      %x = affine.load %a[%i] : memref<8xi32>
      affine.store %x, %buf[%i] : memref<8xi32>
    }
    affine.for %i = 1 to 7 {
      %l = affine.load %buf[%i - 1] : memref<8xi32>
      %m = affine.load %buf[%i] : memref<8xi32>
      %r = affine.load %buf[%i + 1] : memref<8xi32>
      %s = arith.addi %l, %m : i32
      %u = arith.addi %s, %r : i32
      affine.store %u, %b[%i] : memref<8xi32>
    }
  } {hls.label = "t", hls.unroll = "full"}
  return
}
