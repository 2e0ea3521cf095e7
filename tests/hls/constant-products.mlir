// Products by constants are built as the target's measured library
// prices them (hls/src/flow/analysis/constant_product.rs, flow/construct/shift_add.rs): by a
// power of two as wiring, by minus a power of two as a negation, by a
// constant of few signed digits as shifts, adds and subtracts in LUTs
// (9, -7, -3, 1000003, the 64-bit 0x123456789, the 65-bit reciprocal of
// a division by 9, and the index products of the addresses), a constant
// that factors in stages of fewer adds (0x55555555 = 5 * 17 * 257 *
// 65537: 16 signed digits, 4 adds; hls/src/flow/analysis/adder_chain.rs),
// and on a DSP block where the adds cost more than the multiplier
// (0x71a80963: 12 signed digits, 10 adds of 32 bits in its best stages,
// against 3 SB_MAC16) or miss the clock where the multiplier does not. `0 - x` stays a subtract (not
// `x * -1` on a multiplier). At 40 ns every form of adds meets the
// clock: one multiplier, which yosys maps to 3 SB_MAC16 and nothing
// else. At 20 ns the long forms miss it: 25 DSP blocks by the estimate,
// more than the device's 8, so fitting (a `mul` limit) makes multipliers
// scarce and every product by a constant is built in LUTs.
// Co-simulated bit for bit, lint clean.
// RUN: rm -rf %t.d %t.s
// RUN: silica hls %s --top f -o %t.d --target ice40-up5k --clock-ns 40 --sim | FileCheck %s
// RUN: FileCheck %s --check-prefix=HW < %t.d/f.hw.mlir
// RUN: verilator --lint-only -Wall %t.d/f.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/f.sv; synth_ice40 -dsp -top f; tee -q -o %t.d/stat.txt stat"
// RUN: FileCheck %s --check-prefix=STAT < %t.d/stat.txt
// RUN: silica hls %s --top f -o %t.s --target ice40-up5k --clock-ns 20 --sim 2>&1 | FileCheck %s --check-prefix=SCARCE
// RUN: FileCheck %s --check-prefix=SCARCEHW < %t.s/f.hw.mlir

// CHECK: co-simulation (seed 1): 104 values match
// CHECK: resources (estimate): {{[0-9]+}} LC ({{[0-9]+}} LUT4), {{[0-9]+}} FF, 3 DSP, 0 BRAM
// CHECK-NEXT: products by constants: 7 as shifts and adds, 0 negated, 1 on multipliers (in LUTs where its adders cost less than the multiplier)

// HW-COUNT-1: comb.mul
// HW-NOT: comb.mul

// STAT: SB_MAC16 3

// SCARCE: note: the design does not fit ice40-up5k by the estimate (25 DSP of 8); units shared: mul products by constants as shifts and adds
// SCARCE: co-simulation (seed 1): 104 values match
// SCARCE: resources (estimate): {{[0-9]+}} LC ({{[0-9]+}} LUT4), {{[0-9]+}} FF, 0 DSP, 0 BRAM
// SCARCE: products by constants: 8 as shifts and adds, 0 negated, 0 on multipliers (multipliers are scarce: every one in LUTs)
// SCARCEHW-NOT: comb.mul

func.func @f(%a: memref<8xi32>, %b: memref<8xi8>, %c: memref<8xi64>,
             %o: memref<8x8xi32>, %ob: memref<8xi8>, %oc: memref<8xi64>) {
  %c0 = arith.constant 0 : i32
  %c9 = arith.constant 9 : i32
  %cm7 = arith.constant -7 : i32
  %cbig = arith.constant 1000003 : i32
  %cmany = arith.constant 1906837859 : i32
  %cfives = arith.constant 1431655765 : i32
  %c8 = arith.constant 8 : i32
  %cm3 = arith.constant -3 : i8
  %cw = arith.constant 4886718345 : i64
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i] : memref<8xi32>
    %p0 = arith.muli %x, %c9 : i32
    affine.store %p0, %o[%i, 0] : memref<8x8xi32>
    %p1 = arith.muli %x, %cm7 : i32
    affine.store %p1, %o[%i, 1] : memref<8x8xi32>
    %p2 = arith.muli %x, %cbig : i32
    affine.store %p2, %o[%i, 2] : memref<8x8xi32>
    %p3 = arith.muli %x, %cmany : i32
    affine.store %p3, %o[%i, 3] : memref<8x8xi32>
    %p4 = arith.subi %c0, %x : i32
    affine.store %p4, %o[%i, 4] : memref<8x8xi32>
    %p5 = arith.divsi %x, %c9 : i32
    affine.store %p5, %o[%i, 5] : memref<8x8xi32>
    %p6 = arith.muli %x, %c8 : i32
    affine.store %p6, %o[%i, 6] : memref<8x8xi32>
    %p7 = arith.muli %x, %cfives : i32
    affine.store %p7, %o[%i, 7] : memref<8x8xi32>
    %y = affine.load %b[%i] : memref<8xi8>
    %q = arith.muli %y, %cm3 : i8
    affine.store %q, %ob[%i] : memref<8xi8>
    %z = affine.load %c[%i] : memref<8xi64>
    %r = arith.muli %z, %cw : i64
    affine.store %r, %oc[%i] : memref<8xi64>
  }
  return
}
