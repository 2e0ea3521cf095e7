// Pipelining a loop around two sibling loops unrolls both fully: the
// copies of their bodies add (33 + 33 = 66, within the limit of 1,024),
// they do not multiply (1,089 would be refused); the design co-simulates,
// lints clean and synthesises.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top f -o %t.d --sim | FileCheck %s
// RUN: verilator --lint-only -Wall %t.d/f.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/f.sv; synth_ecp5 -top f"

// CHECK: co-simulation (seed 1): {{[0-9]+}} values match
// CHECK: f/i: pipeline = true (attribute): honoured: the 2 loop(s) inside unrolled fully (66 copies of the body)
func.func @f(%A: memref<4x33xi8> {hls.name = "A"}, %x: memref<33xi8> {hls.name = "x"},
             %y: memref<33xi8> {hls.name = "y"}, %t: memref<4xi8> {hls.name = "t"}) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 33 {
      %a = affine.load %A[%i, %j] : memref<4x33xi8>
      %b = affine.load %x[%j] : memref<33xi8>
      %c = affine.load %t[%i] : memref<4xi8>
      %s = arith.addi %c, %a : i8
      %p = arith.addi %s, %b : i8
      affine.store %p, %t[%i] : memref<4xi8>
    }
    affine.for %j = 0 to 33 {
      %a = affine.load %A[%i, %j] : memref<4x33xi8>
      %c = affine.load %y[%j] : memref<33xi8>
      %s = arith.addi %c, %a : i8
      affine.store %s, %y[%j] : memref<33xi8>
    }
  } {hls.label = "i", hls.pipeline = true}
  return
}
