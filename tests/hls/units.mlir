// A `[limits]` entry is a most: once the II is found (3 here, A's one
// port for three reads), each limited class gets the fewest units that
// still give a schedule at that II, ceil(6 products / II 3) = 2 (the
// first modulo schedule put three products in one slot: three
// multipliers, one idle in two slots of three). The design co-simulates
// at the static latency, lints clean and synthesises.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top f -o %t.d --sim --directives %S/directives/units.toml | FileCheck %s
// RUN: verilator --lint-only -Wall %t.d/f.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/f.sv; synth_ice40 -dsp -top f"

// CHECK: co-simulation (seed 1): 72 values match, latency 28 cycles
// CHECK: latency: 28 cycles ({{.*}}), measured by co-simulation, as the static schedule gives
// CHECK: f/i: trip 8, pipelined, II 3 (ResMII 3, RecMII 1)
// CHECK: limits: mul = 8 (directives file): honoured: 6 mul operation(s) on 2 unit(s)
func.func @f(%A: memref<8x3xi32> {hls.name = "A"}, %B: memref<8x6xi32> {hls.name = "B"}) {
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i, 0] : memref<8x3xi32>
    %b = affine.load %A[%i, 1] : memref<8x3xi32>
    %c = affine.load %A[%i, 2] : memref<8x3xi32>
    %p0 = arith.muli %a, %b : i32
    %p1 = arith.muli %b, %c : i32
    %p2 = arith.muli %a, %c : i32
    %p3 = arith.muli %a, %a : i32
    %p4 = arith.muli %b, %b : i32
    %p5 = arith.muli %c, %c : i32
    affine.store %p0, %B[%i, 0] : memref<8x6xi32>
    affine.store %p1, %B[%i, 1] : memref<8x6xi32>
    affine.store %p2, %B[%i, 2] : memref<8x6xi32>
    affine.store %p3, %B[%i, 3] : memref<8x6xi32>
    affine.store %p4, %B[%i, 4] : memref<8x6xi32>
    affine.store %p5, %B[%i, 5] : memref<8x6xi32>
  } {hls.label = "i"}
  return
}
