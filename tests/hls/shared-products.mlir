// Where shared multipliers bound a pipeline's II, datapath rewriting
// counts the products of two variables before the path, and a long sum
// is seeded with its common factor taken out: syr2k's row, k unrolled by
// four, is alpha * (sum of eight products) instead of eight products by
// alpha (16 products on 2 multipliers, II 8 as written; 9, and A's and
// B's one port each for four reads, II 5). The design co-simulates bit
// for bit, lints clean and synthesises.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top row -o %t.d --sim --directives %S/directives/shared-products.toml | FileCheck %s
// RUN: verilator --lint-only -Wall %t.d/row.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/row.sv; synth_ice40 -dsp -top row"

// CHECK: co-simulation (seed 1): {{[0-9]+}} values match
// CHECK: row/0/0: trip 8, pipelined, II 5
// CHECK: datapath rewriting (e-graphs): {{[0-9]+}} expression(s) rewritten, kept, its schedule is better
// CHECK-NEXT: before: {{.*}} row/0/0 II 8
// CHECK-NEXT: after: {{.*}} row/0/0 II 5
// CHECK: alpha * (
func.func @row(%alpha: i32 {hls.name = "alpha"}, %A: memref<8x4xi32> {hls.name = "A"},
    %B: memref<8x4xi32> {hls.name = "B"}, %C: memref<8x8xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %c = affine.load %C[%i, %j] : memref<8x8xi32>
      %aj0 = affine.load %A[%j, 0] : memref<8x4xi32>
      %bi0 = affine.load %B[%i, 0] : memref<8x4xi32>
      %bj0 = affine.load %B[%j, 0] : memref<8x4xi32>
      %ai0 = affine.load %A[%i, 0] : memref<8x4xi32>
      %p0 = arith.muli %aj0, %alpha : i32
      %q0 = arith.muli %p0, %bi0 : i32
      %r0 = arith.muli %bj0, %alpha : i32
      %t0 = arith.muli %r0, %ai0 : i32
      %u0 = arith.addi %q0, %t0 : i32
      %s0 = arith.addi %c, %u0 : i32
      %aj1 = affine.load %A[%j, 1] : memref<8x4xi32>
      %bi1 = affine.load %B[%i, 1] : memref<8x4xi32>
      %bj1 = affine.load %B[%j, 1] : memref<8x4xi32>
      %ai1 = affine.load %A[%i, 1] : memref<8x4xi32>
      %p1 = arith.muli %aj1, %alpha : i32
      %q1 = arith.muli %p1, %bi1 : i32
      %r1 = arith.muli %bj1, %alpha : i32
      %t1 = arith.muli %r1, %ai1 : i32
      %u1 = arith.addi %q1, %t1 : i32
      %s1 = arith.addi %s0, %u1 : i32
      %aj2 = affine.load %A[%j, 2] : memref<8x4xi32>
      %bi2 = affine.load %B[%i, 2] : memref<8x4xi32>
      %bj2 = affine.load %B[%j, 2] : memref<8x4xi32>
      %ai2 = affine.load %A[%i, 2] : memref<8x4xi32>
      %p2 = arith.muli %aj2, %alpha : i32
      %q2 = arith.muli %p2, %bi2 : i32
      %r2 = arith.muli %bj2, %alpha : i32
      %t2 = arith.muli %r2, %ai2 : i32
      %u2 = arith.addi %q2, %t2 : i32
      %s2 = arith.addi %s1, %u2 : i32
      %aj3 = affine.load %A[%j, 3] : memref<8x4xi32>
      %bi3 = affine.load %B[%i, 3] : memref<8x4xi32>
      %bj3 = affine.load %B[%j, 3] : memref<8x4xi32>
      %ai3 = affine.load %A[%i, 3] : memref<8x4xi32>
      %p3 = arith.muli %aj3, %alpha : i32
      %q3 = arith.muli %p3, %bi3 : i32
      %r3 = arith.muli %bj3, %alpha : i32
      %t3 = arith.muli %r3, %ai3 : i32
      %u3 = arith.addi %q3, %t3 : i32
      %s3 = arith.addi %s2, %u3 : i32
      affine.store %s3, %C[%i, %j] : memref<8x8xi32>
    }
  }
  return
}
