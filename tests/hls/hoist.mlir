// `hoist = true` on j, pipelined with k unrolled into it: the four
// alpha * A[i][k], invariant in j, are computed once per i before the
// pipeline (the affine layer's LICM) and held in registers; the pipeline
// keeps its II 4 (B's port) with four products instead of five (the
// datapath rewriting factors alpha out of the sum otherwise), so one
// multiplier under `mul = 2` instead of two, for 20 more cycles (a block
// of states per i). It co-simulates at its static latency, lints clean
// and synthesises. Inside a nest that flatten folds the directive is
// refused (the code would be sunk back). `silica dse` explores it: the
// hoisted point performs 144 multiplications (16 + 128), not 160.
// RUN: rm -rf %t.d %t.flat %t.dse
// RUN: silica hls %s --top f -o %t.d --sim --directives %S/directives/hoist.toml | FileCheck %s
// RUN: verilator --lint-only -Wall %t.d/f.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/f.sv; synth_ice40 -dsp -top f"
// RUN: silica hls %s --top f -o %t.flat --sim --directives %S/directives/hoist-flatten.toml 2>&1 | FileCheck %s --check-prefix=FLAT
// RUN: silica dse %s --top f --space %S/directives/hoist.space.toml -o %t.dse > /dev/null
// RUN: FileCheck %s --check-prefix=CSV < %t.dse/points.csv

// CHECK: co-simulation (seed 1): 80 values match, latency 158 cycles
// CHECK: latency: 158 cycles ({{.*}}), measured by co-simulation, as the static schedule gives
// CHECK: f/i/j: trip 8, pipelined, II 4 (ResMII 4, RecMII 1)
// CHECK: f/i/j: hoist (directives file): honoured: 11 operation(s) moved before the loop (4 multiplication(s), 4 load(s))
// CHECK: limits: mul = 2 (directives file): honoured: 8 mul operation(s) on 1 unit(s)

// FLAT: hoist-flatten.toml:{{[0-9]+}}:{{[0-9]+}}: warning: hoist on f/i/j is not honoured: it is in the nest that flatten folds at f/i
// FLAT: co-simulation (seed 1): 80 values match

// CSV: id,loop:j:pipeline,loop:j:hoist,limits:mul,status
// CSV: 0,true,false,2,ok,estimate,{{.*}},138,{{.*}},160,2,0.5797,
// CSV: 1,true,true,2,ok,estimate,{{.*}},158,{{.*}},144,1,0.9114,
func.func @f(%alpha: i32 {hls.name = "alpha"}, %A: memref<4x4xi32> {hls.name = "A"},
             %B: memref<4x8xi32> {hls.name = "B"}, %T: memref<4x8xi32> {hls.name = "T"}) {
  %c0 = arith.constant 0 : i32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      affine.store %c0, %T[%i, %j] : memref<4x8xi32>
      affine.for %k = 0 to 4 {
        %t = affine.load %T[%i, %j] : memref<4x8xi32>
        %a = affine.load %A[%i, %k] : memref<4x4xi32>
        %aa = arith.muli %alpha, %a : i32
        %b = affine.load %B[%k, %j] : memref<4x8xi32>
        %p = arith.muli %aa, %b : i32
        %s = arith.addi %t, %p : i32
        affine.store %s, %T[%i, %j] : memref<4x8xi32>
      }
    } {hls.label = "j"}
  } {hls.label = "i"}
  return
}
