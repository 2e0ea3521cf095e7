// Pipelining a loop around two sibling loops unrolls both fully: the
// copies of their bodies add (40 + 40 = 80, within the limit of 1,024),
// they do not multiply (1,600 would be refused); the design co-simulates,
// lints clean and synthesises.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top f -o %t.d --sim | FileCheck %s
// RUN: verilator --lint-only -Wall %t.d/f.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/f.sv; synth_ice40 -dsp -top f"

// CHECK: co-simulation (seed 1): {{[0-9]+}} values match
// CHECK: f/i: pipeline = true (attribute): honoured: the 2 loop(s) inside unrolled fully (80 copies of the body)
func.func @f(%A: memref<4x40xi32> {hls.name = "A"}, %x: memref<40xi32> {hls.name = "x"},
             %y: memref<40xi32> {hls.name = "y"}, %t: memref<4xi32> {hls.name = "t"}) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 40 {
      %a = affine.load %A[%i, %j] : memref<4x40xi32>
      %b = affine.load %x[%j] : memref<40xi32>
      %c = affine.load %t[%i] : memref<4xi32>
      %s = arith.addi %c, %a : i32
      %p = arith.addi %s, %b : i32
      affine.store %p, %t[%i] : memref<4xi32>
    }
    affine.for %j = 0 to 40 {
      %a = affine.load %A[%i, %j] : memref<4x40xi32>
      %c = affine.load %y[%j] : memref<40xi32>
      %s = arith.addi %c, %a : i32
      affine.store %s, %y[%j] : memref<40xi32>
    }
  } {hls.label = "i", hls.pipeline = true}
  return
}
