// Divisions of `index` values by constants that are no powers of two take
// the reciprocal path (front/constant_division.rs): `floor(x / |d|)` as the
// affine reciprocal multiplication built at the narrowed index width, on
// the dividend biased toward zero for divsi/remsi, negated for a negative
// divisor; floordivsi/ceildivsi are the affine nodes themselves; divui and
// remui on nonnegative values. No divider is left. Co-simulated bit for
// bit on random inputs (negative dividends included), lint clean,
// accepted by yosys.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top idx -o %t.d --sim | FileCheck %s
// RUN: FileCheck %s --check-prefix=HW < %t.d/idx.hw.mlir
// RUN: verilator --lint-only -Wall %t.d/idx.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/idx.sv; synth_ecp5 -top idx"

// CHECK: co-simulation (seed 1): 128 values match
// HW-NOT: comb.divs
// HW-NOT: comb.divu
// HW-NOT: comb.mods
// HW-NOT: comb.modu

func.func @idx(%a: memref<16xi32>, %q: memref<16xi32>, %r: memref<16xi32>,
               %n: memref<16xi32>, %u: memref<16xi32>, %v: memref<16xi32>,
               %fl: memref<16xi32>, %ce: memref<16xi32>) {
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %cm7 = arith.constant -7 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %mask = arith.constant 1073741823 : i32
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xi32>
    %xi = arith.index_cast %x : i32 to index
    %d = arith.divsi %xi, %c3 : index
    %do = arith.index_cast %d : index to i32
    affine.store %do, %q[%i] : memref<16xi32>
    %m = arith.remsi %xi, %c10 : index
    %mo = arith.index_cast %m : index to i32
    affine.store %mo, %r[%i] : memref<16xi32>
    %dn = arith.divsi %xi, %cm7 : index
    %dno = arith.index_cast %dn : index to i32
    affine.store %dno, %n[%i] : memref<16xi32>
    %p = arith.andi %x, %mask : i32
    %pi = arith.index_cast %p : i32 to index
    %du = arith.divui %pi, %c5 : index
    %duo = arith.index_cast %du : index to i32
    affine.store %duo, %u[%i] : memref<16xi32>
    %mu = arith.remui %pi, %c6 : index
    %muo = arith.index_cast %mu : index to i32
    affine.store %muo, %v[%i] : memref<16xi32>
    %f = arith.floordivsi %xi, %c3 : index
    %fo = arith.index_cast %f : index to i32
    affine.store %fo, %fl[%i] : memref<16xi32>
    %e = arith.ceildivsi %xi, %c6 : index
    %eo = arith.index_cast %e : index to i32
    affine.store %eo, %ce[%i] : memref<16xi32>
  }
  return
}
