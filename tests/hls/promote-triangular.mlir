// Scalar promotion (front/promote.rs) in loops whose trip count is not a
// constant and may be zero. trmm (PolyBench's, M = 6, N = 5): B[i][j]
// accumulates over k = i + 1 .. 6, which runs no iteration at i = 5;
// nothing is stored to B[i][j] before the k loop, so the promoted loop
// loads it and, at i = 5, stores the same value back. B[i][j] is within
// B for every i and j of the loops around (the affine analysis proves
// it), so that changes nothing: promoted, the k loop runs at II 1 (II 3
// in memory: B's port takes two loads and the store). subst (f32,
// trisolv's inner loop without its first store): x[i] -= L[i][j] * x[j]
// over j < i, no iteration at i = 0, x[j] another element than x[i]
// (j < i); promoted, the subtraction alone is the recurrence (II 4, was
// 7). bounds: acc[i] accumulates over k = i .. 8 with i up to 8; at
// i = 8 the k loop runs no iteration and acc[8] is past acc's 8 words,
// so the element stays in memory there (II 2), while the sibling nest
// (i < 8) is promoted (II 1). Co-simulated bit for bit (every nest
// reaches its zero-trip case); lint clean; accepted by yosys.
// RUN: rm -rf %t.t %t.s %t.b
// RUN: silica hls %s --top trmm -o %t.t --sim | FileCheck %s --check-prefix=TRMM
// RUN: FileCheck %s --check-prefix=TREPORT < %t.t/report.txt
// RUN: verilator --lint-only -Wall %t.t/trmm.sv
// RUN: yosys -q -p "read_verilog -sv %t.t/trmm.sv; synth_ice40 -dsp -top trmm"
// RUN: silica hls %s --top subst -o %t.s --sim | FileCheck %s --check-prefix=SOLVE
// RUN: FileCheck %s --check-prefix=SREPORT < %t.s/report.txt
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.s/subst.sv
// RUN: silica hls %s --top bounds -o %t.b --sim | FileCheck %s --check-prefix=BOUNDS
// RUN: FileCheck %s --check-prefix=BREPORT < %t.b/report.txt
// RUN: verilator --lint-only -Wall %t.b/bounds.sv

// TRMM: co-simulation (seed 1): {{[0-9]+}} values match
// TRMM: trmm/i/j/k: trip 5, pipelined, II 1 (ResMII 1, RecMII 1)
// TREPORT: note: read-modify-writes of loop-invariant elements held in registers (scalar promotion): trmm/i/j/k: 1 element(s){{$}}
func.func @trmm(%alpha: i32 {hls.name = "alpha"},
    %A: memref<6x6xi32> {hls.name = "A"},
    %B: memref<6x5xi32> {hls.name = "B"}) {
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 5 {
      affine.for %k = affine_map<(d0) -> (d0 + 1)>(%i) to 6 {
        %b = affine.load %B[%i, %j] : memref<6x5xi32>
        %a = affine.load %A[%k, %i] : memref<6x6xi32>
        %c = affine.load %B[%k, %j] : memref<6x5xi32>
        %p = arith.muli %a, %c : i32
        %s = arith.addi %b, %p : i32
        affine.store %s, %B[%i, %j] : memref<6x5xi32>
      } {hls.label = "k"}
      %b = affine.load %B[%i, %j] : memref<6x5xi32>
      %m = arith.muli %alpha, %b : i32
      affine.store %m, %B[%i, %j] : memref<6x5xi32>
    } {hls.label = "j"}
  } {hls.label = "i"}
  return
}

// SOLVE: co-simulation (seed 1): {{[0-9]+}} values match
// SOLVE: subst/i/j: trip 5, pipelined, II 4 (ResMII 1, RecMII 4)
// SREPORT: note: read-modify-writes of loop-invariant elements held in registers (scalar promotion): subst/i/j: 1 element(s){{$}}
func.func @subst(%L: memref<6x6xf32> {hls.name = "L"},
    %x: memref<6xf32> {hls.name = "x"}) {
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %xi = affine.load %x[%i] : memref<6xf32>
      %l = affine.load %L[%i, %j] : memref<6x6xf32>
      %xj = affine.load %x[%j] : memref<6xf32>
      %p = arith.mulf %l, %xj : f32
      %d = arith.subf %xi, %p : f32
      affine.store %d, %x[%i] : memref<6xf32>
    } {hls.label = "j"}
  } {hls.label = "i"}
  return
}

// BOUNDS: co-simulation (seed 1): {{[0-9]+}} values match
// BOUNDS: bounds/outside/k: trip 8, pipelined, II 2 (ResMII 2, RecMII 2)
// BOUNDS: bounds/inside/k: trip 7, pipelined, II 1 (ResMII 1, RecMII 1)
// BREPORT: note: read-modify-writes of loop-invariant elements held in registers (scalar promotion): bounds/inside/k: 1 element(s){{$}}
func.func @bounds(%acc: memref<8xi32> {hls.name = "acc"},
    %sum: memref<8xi32> {hls.name = "sum"},
    %v: memref<8xi32> {hls.name = "v"}) {
  affine.for %i = 0 to 9 {
    affine.for %k = affine_map<(d0) -> (d0)>(%i) to 8 {
      %a = affine.load %acc[%i] : memref<8xi32>
      %w = affine.load %v[%k] : memref<8xi32>
      %s = arith.addi %a, %w : i32
      affine.store %s, %acc[%i] : memref<8xi32>
    } {hls.label = "k"}
  } {hls.label = "outside"}
  affine.for %i = 0 to 8 {
    affine.for %k = affine_map<(d0) -> (d0 + 1)>(%i) to 8 {
      %a = affine.load %sum[%i] : memref<8xi32>
      %w = affine.load %v[%k] : memref<8xi32>
      %s = arith.addi %a, %w : i32
      affine.store %s, %sum[%i] : memref<8xi32>
    } {hls.label = "k"}
  } {hls.label = "inside"}
  return
}
