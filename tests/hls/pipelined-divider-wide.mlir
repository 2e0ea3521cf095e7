// Pipelined dividers (construct/divider_array.rs) at i32 (divsi, remui and
// floordivsi: pipeline depth 14 at 20 ns, the dividers cut into 11 stages
// of 3 rows as the library's measured stages fit) and i64 (divsi: depth
// 35), on the
// stimulus of pipelined-divider.mlir (the most negative dividend, odd
// divisors, never -1). The scheduler picks the depth for the clock: at
// 40 ns the i32 loop is 7 deep. Co-simulated bit for bit, lint clean.
// RUN: rm -rf %t.32 %t.64 %t.40
// RUN: silica hls %s --top w32 -o %t.32 --sim | FileCheck %s --check-prefix=W32
// RUN: verilator --lint-only -Wall %t.32/w32.sv
// RUN: silica hls %s --top w64 -o %t.64 --sim | FileCheck %s --check-prefix=W64
// RUN: FileCheck %s --check-prefix=HW < %t.64/w64.hw.mlir
// RUN: verilator --lint-only -Wall %t.64/w64.sv
// RUN: silica hls %s --top w32 -o %t.40 --clock-ns 40 | FileCheck %s --check-prefix=C40

// W32: co-simulation (seed 1): 80 values match
// W32: w32/0: trip 16, pipelined, II 1 (ResMII 1, RecMII 1), depth 14
// W32-NOT: note:
// W64: co-simulation (seed 1): 48 values match
// W64: w64/0: trip 16, pipelined, II 1 (ResMII 1, RecMII 1), depth 35
// W64-NOT: note:
// C40: w32/0: trip 16, pipelined, II 1 (ResMII 1, RecMII 1), depth 7
// HW-NOT: comb.divs

func.func @w32(%a: memref<16xi32>, %b: memref<16xi32>, %o0: memref<16xi32>, %o1: memref<16xi32>, %o2: memref<16xi32>) {
  %one = arith.constant 1 : i32
  %m1 = arith.constant -1 : i32
  %three = arith.constant 3 : i32
  %seven = arith.constant 7 : i32
  %zero = arith.constant 0 : i32
  %min = arith.constant -2147483648 : i32
  affine.for %i = 0 to 16 {
    %x0 = affine.load %a[%i] : memref<16xi32>
    %y0 = affine.load %b[%i] : memref<16xi32>
    %low = arith.andi %x0, %seven : i32
    %pick = arith.cmpi eq, %low, %zero : i32
    %x = arith.select %pick, %min, %x0 : i32
    %y1 = arith.ori %y0, %one : i32
    %bad = arith.cmpi eq, %y1, %m1 : i32
    %y = arith.select %bad, %three, %y1 : i32
    %r0 = arith.divsi %x, %y : i32
    affine.store %r0, %o0[%i] : memref<16xi32>
    %r1 = arith.remui %x, %y : i32
    affine.store %r1, %o1[%i] : memref<16xi32>
    %r2 = arith.floordivsi %x, %y : i32
    affine.store %r2, %o2[%i] : memref<16xi32>
  }
  return
}

func.func @w64(%a: memref<16xi64>, %b: memref<16xi64>, %o0: memref<16xi64>) {
  %one = arith.constant 1 : i64
  %m1 = arith.constant -1 : i64
  %three = arith.constant 3 : i64
  %seven = arith.constant 7 : i64
  %zero = arith.constant 0 : i64
  %min = arith.constant -9223372036854775808 : i64
  affine.for %i = 0 to 16 {
    %x0 = affine.load %a[%i] : memref<16xi64>
    %y0 = affine.load %b[%i] : memref<16xi64>
    %low = arith.andi %x0, %seven : i64
    %pick = arith.cmpi eq, %low, %zero : i64
    %x = arith.select %pick, %min, %x0 : i64
    %y1 = arith.ori %y0, %one : i64
    %bad = arith.cmpi eq, %y1, %m1 : i64
    %y = arith.select %bad, %three, %y1 : i64
    %r0 = arith.divsi %x, %y : i64
    affine.store %r0, %o0[%i] : memref<16xi64>
  }
  return
}
