// Loads carried across the iterations of innermost loops (front/carry.rs:
// rotating registers). jacobi: B[i] = (A[i-1] + A[i] + A[i+1]) / 3 on one
// port of A loaded A three times per iteration (II 3); A[i] and A[i+1]
// now pass to the next iteration, one load per iteration: II 1. cols: a
// 5-point 2-D stencil's inner loop, whose three rows a line buffer
// takes (line-buffer.mlir): one load an iteration, II 1. inplace: C is also written in the loop, C[i] where the next
// iteration reads C[i-1]: that register takes the stored value and
// C[i+1] passes on as C[i] (3 -> 1 loads, II 4 -> 2). unrolled: after
// unroll 2 and load reuse the step-2 loop reads U[i-1..i+2]; U[i+1] and
// U[i+2] pass on, 2 loads per iteration (4 before: II 4 -> 2). flat:
// the 3-point row stencil of a nest that a flatten directive folds
// keeps its loads (the nest takes no code between its loops; II 3).
// Co-simulated bit for bit; lint clean; accepted by yosys.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top carry -o %t.d --sim | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.d/report.txt
// RUN: verilator --lint-only -Wall %t.d/carry.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/carry.sv; synth_ice40 -dsp -top carry"

// CHECK: co-simulation (seed 1): 490 values match
// CHECK: carry/jacobi: trip 32, pipelined, II 1 (ResMII 1, RecMII 1)
// CHECK: carry/rows/cols: trip 10, pipelined, II 1 (ResMII 1, RecMII 1)
// CHECK: carry/inplace: trip 32, pipelined, II 2 (ResMII 2, RecMII 1)
// CHECK: carry/unrolled: trip 16, pipelined, II 2 (ResMII 2, RecMII 1)
// CHECK: carry/flat: trip 64 (flattened with carry/flat/fcols), pipelined, II 3 (ResMII 3, RecMII 1)
// REPORT: note: loads carried across iterations (rotating registers): carry/jacobi: 3 -> 1 loads per iteration, 2 element(s) carried; carry/inplace: 3 -> 1 loads per iteration, 2 element(s) carried; carry/unrolled: 4 -> 2 loads per iteration, 2 element(s) carried{{$}}
func.func @carry(%a: memref<34xi32> {hls.name = "A"},
                 %b: memref<34xi32> {hls.name = "B"},
                 %p: memref<8x10xi32> {hls.name = "P"},
                 %q: memref<8x10xi32> {hls.name = "Q"},
                 %c: memref<34xi32> {hls.name = "C"},
                 %u: memref<34xi32> {hls.name = "U"},
                 %v: memref<34xi32> {hls.name = "V"},
                 %f: memref<8x10xi32> {hls.name = "F"},
                 %g: memref<8x10xi32> {hls.name = "G"}) {
  %three = arith.constant 3 : i32
  affine.for %i = 1 to 33 {
    %l = affine.load %a[%i - 1] : memref<34xi32>
    %m = affine.load %a[%i] : memref<34xi32>
    %r = affine.load %a[%i + 1] : memref<34xi32>
    %s = arith.addi %l, %m : i32
    %t = arith.addi %s, %r : i32
    %d = arith.divsi %t, %three : i32
    affine.store %d, %b[%i] : memref<34xi32>
  } {hls.label = "jacobi"}
  affine.for %i = 1 to 7 {
    affine.for %j = 1 to 9 {
      %n = affine.load %p[%i - 1, %j] : memref<8x10xi32>
      %w = affine.load %p[%i, %j - 1] : memref<8x10xi32>
      %x = affine.load %p[%i, %j] : memref<8x10xi32>
      %e = affine.load %p[%i, %j + 1] : memref<8x10xi32>
      %s = affine.load %p[%i + 1, %j] : memref<8x10xi32>
      %t0 = arith.addi %n, %w : i32
      %t1 = arith.addi %t0, %x : i32
      %t2 = arith.addi %t1, %e : i32
      %t3 = arith.addi %t2, %s : i32
      affine.store %t3, %q[%i, %j] : memref<8x10xi32>
    } {hls.label = "cols"}
  } {hls.label = "rows"}
  affine.for %i = 1 to 33 {
    %l = affine.load %c[%i - 1] : memref<34xi32>
    %m = affine.load %c[%i] : memref<34xi32>
    %r = affine.load %c[%i + 1] : memref<34xi32>
    %s = arith.addi %l, %m : i32
    %t = arith.xori %s, %r : i32
    affine.store %t, %c[%i] : memref<34xi32>
  } {hls.label = "inplace"}
  affine.for %i = 1 to 33 {
    %l = affine.load %u[%i - 1] : memref<34xi32>
    %m = affine.load %u[%i] : memref<34xi32>
    %r = affine.load %u[%i + 1] : memref<34xi32>
    %s = arith.subi %l, %m : i32
    %t = arith.addi %s, %r : i32
    affine.store %t, %v[%i] : memref<34xi32>
  } {hls.label = "unrolled", hls.unroll = 2}
  affine.for %i = 0 to 8 {
    affine.for %j = 1 to 9 {
      %w = affine.load %f[%i, %j - 1] : memref<8x10xi32>
      %x = affine.load %f[%i, %j] : memref<8x10xi32>
      %e = affine.load %f[%i, %j + 1] : memref<8x10xi32>
      %t0 = arith.addi %w, %x : i32
      %t1 = arith.addi %t0, %e : i32
      affine.store %t1, %g[%i, %j] : memref<8x10xi32>
    } {hls.label = "fcols"}
  } {hls.label = "flat", hls.flatten = true}
  return
}
