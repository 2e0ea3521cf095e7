// Divisions by variable divisors as pipelined restoring arrays
// (construct/divider_array.rs): the scheduler cuts a divider whose measured
// delay (the operator library's `div` class) does not fit the clock into
// as many stages as the measured stages need (the library's `div_stage`
// points; schedule/problem.rs divider_stages), so no
// divider misses the clock and a new division starts every cycle. Here
// all six signed and unsigned quotients and remainders at i8 (divsi,
// divui, remsi, remui, floordivsi, ceildivsi) and ceildivsi and divui at
// an odd width, i33 (pipeline depth 14 at 20 ns). The stimulus
// makes every eighth dividend the most negative value and every divisor
// odd (so never zero) and never -1 (the most negative value over -1 is
// undefined in MLIR, and traps in the software reference). Co-simulated
// bit for bit, pipelined and sequential; lint clean, accepted by yosys.
// RUN: rm -rf %t.8 %t.s %t.33
// RUN: silica hls %s --top w8 -o %t.8 --sim | FileCheck %s --check-prefix=W8
// RUN: FileCheck %s --check-prefix=HW < %t.8/w8.hw.mlir
// RUN: verilator --lint-only -Wall %t.8/w8.sv
// RUN: yosys -q -p "read_verilog -sv %t.8/w8.sv; synth_ice40 -dsp -top w8"
// RUN: silica hls %s --top w8 -o %t.s --sim --no-pipeline | FileCheck %s --check-prefix=SEQ
// RUN: silica hls %s --top w33 -o %t.33 --sim | FileCheck %s --check-prefix=W33
// RUN: FileCheck %s --check-prefix=HW < %t.33/w33.hw.mlir
// RUN: verilator --lint-only -Wall %t.33/w33.sv

// W8: co-simulation (seed 1): 128 values match
// W8: w8/0: trip 16, pipelined, II 1 (ResMII 1, RecMII 1), depth 5
// W8-NOT: note:
// SEQ: co-simulation (seed 1): 128 values match
// W33: co-simulation (seed 1): 64 values match
// W33: w33/0: trip 16, pipelined, II 1 (ResMII 1, RecMII 1), depth 14
// W33-NOT: note:
// HW-NOT: comb.divs
// HW-NOT: comb.divu
// HW-NOT: comb.mods
// HW-NOT: comb.modu

func.func @w8(%a: memref<16xi8>, %b: memref<16xi8>, %o0: memref<16xi8>, %o1: memref<16xi8>, %o2: memref<16xi8>, %o3: memref<16xi8>, %o4: memref<16xi8>, %o5: memref<16xi8>) {
  %one = arith.constant 1 : i8
  %m1 = arith.constant -1 : i8
  %three = arith.constant 3 : i8
  %seven = arith.constant 7 : i8
  %zero = arith.constant 0 : i8
  %min = arith.constant -128 : i8
  affine.for %i = 0 to 16 {
    %x0 = affine.load %a[%i] : memref<16xi8>
    %y0 = affine.load %b[%i] : memref<16xi8>
    %low = arith.andi %x0, %seven : i8
    %pick = arith.cmpi eq, %low, %zero : i8
    %x = arith.select %pick, %min, %x0 : i8
    %y1 = arith.ori %y0, %one : i8
    %bad = arith.cmpi eq, %y1, %m1 : i8
    %y = arith.select %bad, %three, %y1 : i8
    %r0 = arith.divsi %x, %y : i8
    affine.store %r0, %o0[%i] : memref<16xi8>
    %r1 = arith.divui %x, %y : i8
    affine.store %r1, %o1[%i] : memref<16xi8>
    %r2 = arith.remsi %x, %y : i8
    affine.store %r2, %o2[%i] : memref<16xi8>
    %r3 = arith.remui %x, %y : i8
    affine.store %r3, %o3[%i] : memref<16xi8>
    %r4 = arith.floordivsi %x, %y : i8
    affine.store %r4, %o4[%i] : memref<16xi8>
    %r5 = arith.ceildivsi %x, %y : i8
    affine.store %r5, %o5[%i] : memref<16xi8>
  }
  return
}

func.func @w33(%a: memref<16xi33>, %b: memref<16xi33>, %o0: memref<16xi33>, %o1: memref<16xi33>) {
  %one = arith.constant 1 : i33
  %m1 = arith.constant -1 : i33
  %three = arith.constant 3 : i33
  %seven = arith.constant 7 : i33
  %zero = arith.constant 0 : i33
  %min = arith.constant -4294967296 : i33
  affine.for %i = 0 to 16 {
    %x0 = affine.load %a[%i] : memref<16xi33>
    %y0 = affine.load %b[%i] : memref<16xi33>
    %low = arith.andi %x0, %seven : i33
    %pick = arith.cmpi eq, %low, %zero : i33
    %x = arith.select %pick, %min, %x0 : i33
    %y1 = arith.ori %y0, %one : i33
    %bad = arith.cmpi eq, %y1, %m1 : i33
    %y = arith.select %bad, %three, %y1 : i33
    %r0 = arith.ceildivsi %x, %y : i33
    affine.store %r0, %o0[%i] : memref<16xi33>
    %r1 = arith.divui %x, %y : i33
    affine.store %r1, %o1[%i] : memref<16xi33>
  }
  return
}
