// Divisions and remainders by constant powers of two become shifts, masks
// and a rounding bias (front/pow2_division.rs), never a divider: signed
// (rounding toward zero on negative dividends) and unsigned, at i8, i32,
// i33 and index, the floor and ceiling divisions built on them, by 1
// (the dividend itself), and a divisor that is no power of two (a
// divider stays). Co-simulated bit for bit on random inputs (negative
// dividends included), lint clean, accepted by yosys.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top pow2 -o %t.d --sim | FileCheck %s
// RUN: FileCheck %s --check-prefix=HW < %t.d/pow2.hw.mlir
// RUN: verilator --lint-only -Wall %t.d/pow2.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/pow2.sv; synth_ice40 -top pow2"

// CHECK: co-simulation (seed 1): 256 values match
// HW-COUNT-1: comb.divs
// HW-NOT: comb.divs
// HW-NOT: comb.divu
// HW-NOT: comb.mods
// HW-NOT: comb.modu

func.func @pow2(%a: memref<16xi32>, %b: memref<16xi8>, %c: memref<16xi33>,
                %q: memref<16xi32>, %r: memref<16xi32>, %u: memref<16xi32>,
                %v: memref<16xi32>, %fl: memref<16xi32>, %ce: memref<16xi32>,
                %bq: memref<16xi8>, %br: memref<16xi8>, %cq: memref<16xi33>,
                %cr: memref<16xi33>, %iq: memref<16xi32>, %one: memref<16xi32>,
                %odd: memref<16xi32>) {
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %c1024 = arith.constant 1024 : i32
  %c64 = arith.constant 64 : i8
  %cb2 = arith.constant 2 : i8
  %cw = arith.constant 4294967296 : i33
  %cs = arith.constant 2147483648 : i33
  %c7 = arith.constant 7 : i32
  %i16 = arith.constant 16 : index
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xi32>
    %d = arith.divsi %x, %c8 : i32
    affine.store %d, %q[%i] : memref<16xi32>
    %m = arith.remsi %x, %c1024 : i32
    affine.store %m, %r[%i] : memref<16xi32>
    %du = arith.divui %x, %c8 : i32
    affine.store %du, %u[%i] : memref<16xi32>
    %mu = arith.remui %x, %c1024 : i32
    affine.store %mu, %v[%i] : memref<16xi32>
    %f = arith.floordivsi %x, %c8 : i32
    affine.store %f, %fl[%i] : memref<16xi32>
    %e = arith.ceildivsi %x, %c1024 : i32
    affine.store %e, %ce[%i] : memref<16xi32>
    %y = affine.load %b[%i] : memref<16xi8>
    %yq = arith.divsi %y, %c64 : i8
    affine.store %yq, %bq[%i] : memref<16xi8>
    %yr = arith.remui %y, %cb2 : i8
    affine.store %yr, %br[%i] : memref<16xi8>
    %z = affine.load %c[%i] : memref<16xi33>
    %zq = arith.divui %z, %cw : i33
    affine.store %zq, %cq[%i] : memref<16xi33>
    %zr = arith.remsi %z, %cs : i33
    affine.store %zr, %cr[%i] : memref<16xi33>
    %xi = arith.index_cast %x : i32 to index
    %xq = arith.divsi %xi, %i16 : index
    %xo = arith.index_cast %xq : index to i32
    affine.store %xo, %iq[%i] : memref<16xi32>
    %o = arith.divsi %x, %c1 : i32
    %or = arith.remsi %x, %c1 : i32
    %os = arith.addi %o, %or : i32
    affine.store %os, %one[%i] : memref<16xi32>
    %n = arith.divsi %x, %c7 : i32
    affine.store %n, %odd[%i] : memref<16xi32>
  }
  return
}
