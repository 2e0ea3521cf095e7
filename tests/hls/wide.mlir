// Integers wider than 128 bits end to end, and 1-bit ones: i256 and i129
// memories, an i129 scalar argument, i256 and i1 results, constants wider
// than 128 bits, add/sub/shifts/comparisons at those widths,
// extensions and truncations between them. Co-simulated bit for bit
// (stimuli, testbench and software handle the wide words), lint clean,
// accepted by yosys.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica hls %s --top wide -o %t.d --sim | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.d/wide.json
// RUN: verilator --lint-only -Wall %t.d/wide.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/wide.sv; synth_ice40 -dsp -top wide"

// CHECK: co-simulation (seed 1): 26 values match
// JSON: "type": "memref<8xi256>",
// JSON: "element_width": 256,
// JSON: "type": "memref<8xi129>",
// JSON: "element_width": 129,
// JSON: "type": "memref<8xi1>",
// JSON: "type": "i129",
// JSON-NEXT: "width": 129
// JSON: "name": "result0",
// JSON-NEXT: "type": "i256",
// JSON: "name": "result1",
// JSON-NEXT: "type": "i1",
func.func @wide(%a: memref<8xi256>, %b: memref<8xi129>, %f: memref<8xi1>, %k: i129) -> (i256, i1) {
  %z = arith.constant 0 : i256
  %big = arith.constant 0x123456789abcdef0fedcba98765432100f1e2d3c4b5a69788796a5b4c3d2e1f0 : i256
  %f0 = arith.constant false
  %r:2 = affine.for %i = 0 to 8 iter_args(%s = %z, %any = %f0) -> (i256, i1) {
    %x = affine.load %a[%i] : memref<8xi256>
    %y = affine.load %b[%i] : memref<8xi129>
    %ye = arith.extsi %y : i129 to i256
    %ke = arith.extui %k : i129 to i256
    %p = arith.subi %x, %ye : i256
    %q = arith.addi %p, %ke : i256
    %c200 = arith.constant 200 : i256
    %sh = arith.shrui %q, %c200 : i256
    %c255 = arith.constant 255 : i256
    %amount = arith.andi %x, %c255 : i256
    %sl = arith.shli %big, %amount : i256
    %t = arith.xori %sh, %sl : i256
    %u = arith.addi %s, %t : i256
    %lt = arith.cmpi slt, %x, %ye : i256
    %fl = affine.load %f[%i] : memref<8xi1>
    %both = arith.andi %lt, %fl : i1
    %any2 = arith.ori %any, %both : i1
    affine.store %both, %f[%i] : memref<8xi1>
    %d = arith.addi %k, %y : i129
    %tr = arith.trunci %q : i256 to i129
    %w = arith.xori %d, %tr : i129
    affine.store %w, %b[%i] : memref<8xi129>
    affine.yield %u, %any2 : i256, i1
  }
  return %r#0, %r#1 : i256, i1
}
