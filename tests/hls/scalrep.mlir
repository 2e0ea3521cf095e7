// Redundant loads and stores in loops no directive unrolls
// (front/reuse.rs: the affine layer's scalar replacement on the whole
// top function). twice: a[i] and b[i] read twice in one iteration and
// c[i] read back after its store: one load of each, the store's value
// forwarded: 2 loads on one port each, II 1 (5 loads made it II 2); the
// two additions, now on the same operands, merged into one (the CSE walk
// after scalar replacement). fw: floyd-warshall's body as PolyBench
// writes it, path[i][k] + path[k][j] computed for the comparison and
// again for the select: 3 loads (5 before; ResMII 6 -> 4 on path's one
// port) and one float addition (two on the same operands before the
// merge), one adder module. Co-simulated bit for bit; lint clean; twice
// accepted by yosys.
// RUN: rm -rf %t.t %t.f
// RUN: silica hls %s --top twice -o %t.t --sim | FileCheck %s --check-prefix=TWICE
// RUN: verilator --lint-only -Wall %t.t/twice.sv
// RUN: yosys -q -p "read_verilog -sv %t.t/twice.sv; synth_ice40 -dsp -top twice"
// RUN: silica hls %s --top fw -o %t.f --sim | FileCheck %s --check-prefix=FW
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.f/fw.sv

// TWICE: co-simulation (seed 1): {{[0-9]+}} values match
// TWICE: twice/0: trip 16, pipelined, II 1 (ResMII 1, RecMII 1)
// TWICE: schedule of twice/0 (step: operations):
// TWICE-NEXT: 0: load#0 load#1
// TWICE-NEXT: 1: add#2 store#3 mul#4
// TWICE-NEXT: 2: store#5
// TWICE: note: redundant loads and stores (affine-scalrep): 3 of 5 loads and 0 of 2 stores removed
// TWICE-NEXT: note: equivalent operations merged (cse, unused operations kept): 1
// FW: co-simulation (seed 1): {{[0-9]+}} values match
// FW: fw/0/0/0: trip 6, pipelined, II 6 (ResMII 4, RecMII 6)
// FW: schedule of fw/0/0/0 (step: operations):
// FW-NOT: fadd#
// FW: {{^ *[0-9]+: fadd#[0-9]+ *$}}
// FW-NOT: fadd#
// FW: float operators (latency, slowest stage as measured):
// FW-NEXT: silica_fadd_f32_l{{[0-9]+}}:
// FW-NEXT: silica_fcmp_olt_f32_l{{[0-9]+}}:
// FW: note: redundant loads and stores (affine-scalrep): 2 of 5 loads and 0 of 1 stores removed
// FW-NEXT: note: equivalent operations merged (cse, unused operations kept): 1
func.func @twice(%a: memref<16xi32>, %b: memref<16xi32>, %c: memref<16xi32>,
                 %d: memref<16xi32>) {
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xi32>
    %y = affine.load %b[%i] : memref<16xi32>
    %s = arith.addi %x, %y : i32
    affine.store %s, %c[%i] : memref<16xi32>
    %x2 = affine.load %a[%i] : memref<16xi32>
    %y2 = affine.load %b[%i] : memref<16xi32>
    %t = arith.addi %x2, %y2 : i32
    %r = affine.load %c[%i] : memref<16xi32>
    %p = arith.muli %t, %r : i32
    affine.store %p, %d[%i] : memref<16xi32>
  }
  return
}

func.func @fw(%p: memref<6x6xf32>) {
  affine.for %k = 0 to 6 {
    affine.for %i = 0 to 6 {
      affine.for %j = 0 to 6 {
        %a = affine.load %p[%i, %j] : memref<6x6xf32>
        %b = affine.load %p[%i, %k] : memref<6x6xf32>
        %c = affine.load %p[%k, %j] : memref<6x6xf32>
        %s = arith.addf %b, %c : f32
        %lt = arith.cmpf olt, %a, %s : f32
        %b2 = affine.load %p[%i, %k] : memref<6x6xf32>
        %c2 = affine.load %p[%k, %j] : memref<6x6xf32>
        %s2 = arith.addf %b2, %c2 : f32
        %m = arith.select %lt, %a, %s2 : f32
        affine.store %m, %p[%i, %j] : memref<6x6xf32>
      }
    }
  }
  return
}
