// Divisions and remainders by constants are lifted without dividers
// (front/constant_division.rs): by powers of two as shifts, masks and a
// rounding bias (@pow2: signed, rounding toward zero, and unsigned, at i8,
// i32, i33 and index, by 1, and under floordivsi/ceildivsi); by other
// constants as a multiplication by the rounded-up reciprocal, on
// magnitudes when signed (@odd: negative divisors, the signed minimum,
// remainders, floordivsi/ceildivsi, i8, i16 and i32). A variable divisor
// keeps its divider (pipelined). Co-simulated bit for bit on random inputs, lint
// clean, accepted by yosys.
// RUN: rm -rf %t.d %t.o
// RUN: silica hls %s --top pow2 -o %t.d --sim | FileCheck %s
// RUN: FileCheck %s --check-prefix=HW < %t.d/pow2.hw.mlir
// RUN: verilator --lint-only -Wall %t.d/pow2.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/pow2.sv; synth_ice40 -dsp -top pow2"
// RUN: silica hls %s --top odd -o %t.o --sim | FileCheck %s --check-prefix=ODD
// RUN: FileCheck %s --check-prefix=ODDHW < %t.o/odd.hw.mlir
// RUN: FileCheck %s --check-prefix=ODDARR < %t.o/odd.hw.mlir
// RUN: verilator --lint-only -Wall %t.o/odd.sv
// RUN: yosys -q -p "read_verilog -sv %t.o/odd.sv; synth_ice40 -dsp -top odd"

// CHECK: co-simulation (seed 1): 240 values match
// HW-NOT: comb.divs
// HW-NOT: comb.divu
// HW-NOT: comb.mods
// HW-NOT: comb.modu
// HW-NOT: comb.mul

func.func @pow2(%a: memref<16xi32>, %b: memref<16xi8>, %c: memref<16xi33>,
                %q: memref<16xi32>, %r: memref<16xi32>, %u: memref<16xi32>,
                %v: memref<16xi32>, %fl: memref<16xi32>, %ce: memref<16xi32>,
                %bq: memref<16xi8>, %br: memref<16xi8>, %cq: memref<16xi33>,
                %cr: memref<16xi33>, %iq: memref<16xi32>, %one: memref<16xi32>) {
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %c1024 = arith.constant 1024 : i32
  %c64 = arith.constant 64 : i8
  %cb2 = arith.constant 2 : i8
  %cw = arith.constant 4294967296 : i33
  %cs = arith.constant 2147483648 : i33
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
  }
  return
}

// ODD: co-simulation (seed 1): 176 values match
// The variable i8 divisor keeps its divider: a pipelined array at 20 ns
// (construct/divider_array.rs, registers named after its node), no comb.divs.
// ODDARR: %op{{[0-9]+}}_d1 = seq.compreg
// ODDHW-NOT: comb.divs
// ODDHW-NOT: comb.mods
// ODDHW-NOT: comb.divu
// ODDHW-NOT: comb.modu

func.func @odd(%a: memref<16xi16>, %b: memref<16xi8>, %w: memref<16xi32>,
               %q: memref<16xi16>, %ur: memref<16xi16>, %nq: memref<16xi16>,
               %nr: memref<16xi16>, %b3: memref<16xi8>, %fe: memref<16xi16>,
               %w31: memref<16xi32>, %var: memref<16xi8>) {
  %c7 = arith.constant 7 : i16
  %c10 = arith.constant 10 : i16
  %cm5 = arith.constant -5 : i16
  %cmin = arith.constant -32768 : i16
  %b3c = arith.constant 3 : i8
  %c31 = arith.constant 31 : i32
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xi16>
    %n = arith.divsi %x, %c7 : i16
    affine.store %n, %q[%i] : memref<16xi16>
    %uu = arith.remui %x, %c10 : i16
    affine.store %uu, %ur[%i] : memref<16xi16>
    %n5 = arith.divsi %x, %cm5 : i16
    %nm = arith.divsi %x, %cmin : i16
    %n5m = arith.addi %n5, %nm : i16
    affine.store %n5m, %nq[%i] : memref<16xi16>
    %r5 = arith.remsi %x, %cm5 : i16
    affine.store %r5, %nr[%i] : memref<16xi16>
    %y = affine.load %b[%i] : memref<16xi8>
    %y3 = arith.divui %y, %b3c : i8
    affine.store %y3, %b3[%i] : memref<16xi8>
    %f7 = arith.floordivsi %x, %c7 : i16
    %e7 = arith.ceildivsi %x, %c10 : i16
    %fe7 = arith.xori %f7, %e7 : i16
    affine.store %fe7, %fe[%i] : memref<16xi16>
    %z = affine.load %w[%i] : memref<16xi32>
    %z31 = arith.remsi %z, %c31 : i32
    affine.store %z31, %w31[%i] : memref<16xi32>
    %yy = arith.ori %y, %b3c : i8
    %yt = arith.trunci %x : i16 to i8
    %yd = arith.divsi %yt, %yy : i8
    affine.store %yd, %var[%i] : memref<16xi8>
  }
  return
}

// Affine floordiv, ceildiv and mod by constants that are no powers of two
// (negative values included) are reciprocal multiplications too.
// RUN: rm -rf %t.a
// RUN: silica hls %s --top affine -o %t.a --sim | FileCheck %s --check-prefix=AFF
// RUN: FileCheck %s --check-prefix=AFFHW < %t.a/affine.hw.mlir
// RUN: verilator --lint-only -Wall %t.a/affine.sv
// RUN: yosys -q -p "read_verilog -sv %t.a/affine.sv; synth_ice40 -dsp -top affine"
// AFF: co-simulation (seed 1): 128 values match
// The scheduler times each division as its multiplication and correction
// (schedule/problem.rs constant_division: the products in the forms they
// are built in), not as an add: the chain no longer fits one cycle with
// its load and stores (depth 4, not 2), and the mod alone (33 bits, its
// two products' shifts and adds) is reported as longer than a cycle.
// AFF: affine/0: trip 32, pipelined, II 1 (ResMII 1, RecMII 1), depth 4
// AFF: note: add#{{[0-9]+}} (33 bits) takes 2{{[0-9]}}.{{[0-9]+}} ns, more than
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
