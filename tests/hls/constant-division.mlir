// Divisions and remainders by constants are lifted without dividers
// (front/constant_division.rs): by powers of two as shifts, masks and a
// rounding bias; by other constants as a multiplication by the rounded-up
// reciprocal, on magnitudes when signed. Signed (rounding toward zero,
// negative dividends and divisors, the signed minimum) and unsigned, at
// i8, i32, i33 and index, the floor and ceiling divisions built on them,
// by 1. An index remainder by 3 keeps its divider (the index width is not
// known while lifting). Co-simulated bit for bit on random inputs, lint
// clean, accepted by yosys.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top pow2 -o %t.d --sim | FileCheck %s
// RUN: FileCheck %s --check-prefix=HW < %t.d/pow2.hw.mlir
// RUN: verilator --lint-only -Wall %t.d/pow2.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/pow2.sv; synth_ice40 -top pow2"

// CHECK: co-simulation (seed 1): 368 values match
// HW-COUNT-1: comb.mods %{{.*}} : i64
// HW-NOT: comb.mods
// HW-NOT: comb.divs
// HW-NOT: comb.divu
// HW-NOT: comb.mods
// HW-NOT: comb.modu

func.func @pow2(%a: memref<16xi32>, %b: memref<16xi8>, %c: memref<16xi33>,
                %q: memref<16xi32>, %r: memref<16xi32>, %u: memref<16xi32>,
                %v: memref<16xi32>, %fl: memref<16xi32>, %ce: memref<16xi32>,
                %bq: memref<16xi8>, %br: memref<16xi8>, %cq: memref<16xi33>,
                %cr: memref<16xi33>, %iq: memref<16xi32>, %one: memref<16xi32>,
                %odd: memref<16xi32>, %ur: memref<16xi32>, %nq: memref<16xi32>,
                %nr: memref<16xi32>, %b3: memref<16xi8>, %c31: memref<16xi33>,
                %fl7: memref<16xi32>, %ix: memref<16xi32>) {
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %c1024 = arith.constant 1024 : i32
  %c64 = arith.constant 64 : i8
  %cb2 = arith.constant 2 : i8
  %cw = arith.constant 4294967296 : i33
  %cs = arith.constant 2147483648 : i33
  %c7 = arith.constant 7 : i32
  %i16 = arith.constant 16 : index
  %i3 = arith.constant 3 : index
  %c10 = arith.constant 10 : i32
  %cm5 = arith.constant -5 : i32
  %b3c = arith.constant 3 : i8
  %w31 = arith.constant 31 : i33
  %cmin = arith.constant -2147483648 : i32
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
    %uu = arith.remui %x, %c10 : i32
    affine.store %uu, %ur[%i] : memref<16xi32>
    %n5 = arith.divsi %x, %cm5 : i32
    %nm = arith.divsi %x, %cmin : i32
    %n5m = arith.addi %n5, %nm : i32
    affine.store %n5m, %nq[%i] : memref<16xi32>
    %r5 = arith.remsi %x, %cm5 : i32
    affine.store %r5, %nr[%i] : memref<16xi32>
    %y3 = arith.divui %y, %b3c : i8
    affine.store %y3, %b3[%i] : memref<16xi8>
    %z31 = arith.remsi %z, %w31 : i33
    affine.store %z31, %c31[%i] : memref<16xi33>
    %f7 = arith.floordivsi %x, %c7 : i32
    %e7 = arith.ceildivsi %x, %c10 : i32
    %fe = arith.xori %f7, %e7 : i32
    affine.store %fe, %fl7[%i] : memref<16xi32>
    %x3 = arith.remsi %xi, %i3 : index
    %x3c = arith.index_cast %x3 : index to i32
    affine.store %x3c, %ix[%i] : memref<16xi32>
  }
  return
}

// Affine floordiv, ceildiv and mod by constants that are no powers of two
// (negative values included) are reciprocal multiplications too.
// RUN: rm -rf %t.a
// RUN: silica hls %s --top affine -o %t.a --sim | FileCheck %s --check-prefix=AFF
// RUN: FileCheck %s --check-prefix=AFFHW < %t.a/affine.hw.mlir
// RUN: verilator --lint-only -Wall %t.a/affine.sv
// RUN: yosys -q -p "read_verilog -sv %t.a/affine.sv; synth_ice40 -top affine"
// AFF: co-simulation (seed 1): 128 values match
// AFFHW-NOT: comb.divs
// AFFHW-NOT: comb.mods

func.func @affine(%a: memref<32xi32>, %f: memref<32xi32>, %m: memref<32xi32>,
                  %c: memref<32xi32>) {
  affine.for %i = 0 to 32 {
    %x = affine.load %a[%i] : memref<32xi32>
    %xi = arith.index_cast %x : i32 to index
    %q = affine.apply affine_map<(d0, d1) -> ((d0 + d1 - 40) floordiv 3)>(%i, %xi)
    %qc = arith.index_cast %q : index to i32
    affine.store %qc, %f[%i] : memref<32xi32>
    %r = affine.apply affine_map<(d0, d1) -> ((d0 * 7 - d1) mod 5)>(%i, %xi)
    %rc = arith.index_cast %r : index to i32
    affine.store %rc, %m[%i] : memref<32xi32>
    %e = affine.apply affine_map<(d0, d1) -> ((d1 - d0 * 3) ceildiv 7)>(%i, %xi)
    %ec = arith.index_cast %e : index to i32
    affine.store %ec, %c[%i] : memref<32xi32>
  }
  return
}
