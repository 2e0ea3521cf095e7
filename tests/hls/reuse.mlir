// Load reuse across the copies of an unrolled body (front/reuse.rs: the
// affine layer's scalar replacement on the top function, the unrolled
// copies included; tests/hls/scalrep.mlir has loops not unrolled). stencil: unrolled by 2, the copies read A[i-1], A[i],
// A[i+1] and A[i], A[i+1], A[i+2]; the two shared elements are loaded
// once (the store to B between the copies does not intervene: the top's
// arguments are distinct memories), so 4 loads on 2 ports give II 2 (6
// loads would need 3). alias: reads of C, but a store to C at an index
// loaded from E (it may be any element) lies between the copies, so
// nothing is shared: 4 loads and 2 stores on C's one port, II 6.
// local: the store goes to an on-chip array instead (a distinct
// allocation), so C[i+1] is shared: II 3. carry.rs then passes values
// on to the next iteration where that lowers the port bound: stencil
// loads 2 words per iteration (II 1), local 2 of C (II 2).
// Co-simulated bit for bit; lint clean; accepted by yosys.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top reuse -o %t.d --sim | FileCheck %s
// RUN: verilator --lint-only -Wall %t.d/reuse.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/reuse.sv; synth_ice40 -dsp -top reuse"

// CHECK: co-simulation (seed 1): {{[0-9]+}} values match
// CHECK: reuse/stencil: trip 16, pipelined, II 1 (ResMII 1, RecMII 1)
// CHECK: reuse/alias: trip 16, pipelined, II 6 (ResMII 6, RecMII {{[0-9]}})
// CHECK: reuse/local: trip 16, pipelined, II 2 (ResMII 2, RecMII 1)
// CHECK: note: redundant loads and stores (affine-scalrep): 3 of 17 loads and 0 of 7 stores removed
// CHECK: note: loads carried across iterations (rotating registers): reuse/stencil: 4 -> 2 loads per iteration, 2 element(s) carried; reuse/local: 3 -> 2 loads per iteration, 1 element(s) carried
// CHECK: reuse/stencil: unroll 2 (attribute): honoured: body repeated 2 times
func.func @reuse(%a: memref<34xi32> {hls.name = "A", hls.ports = 2},
                 %b: memref<34xi32> {hls.name = "B", hls.ports = 2},
                 %c: memref<34xi32> {hls.name = "C"},
                 %e: memref<32xi32> {hls.name = "E"}) {
  %mask = arith.constant 31 : i32
  affine.for %i = 1 to 33 {
    %l = affine.load %a[%i - 1] : memref<34xi32>
    %m = affine.load %a[%i] : memref<34xi32>
    %r = affine.load %a[%i + 1] : memref<34xi32>
    %s = arith.addi %l, %m : i32
    %t = arith.addi %s, %r : i32
    affine.store %t, %b[%i] : memref<34xi32>
  } {hls.label = "stencil", hls.unroll = 2}
  affine.for %i = 0 to 32 {
    %m = affine.load %c[%i] : memref<34xi32>
    %r = affine.load %c[%i + 1] : memref<34xi32>
    %s = arith.subi %m, %r : i32
    %k = affine.load %e[%i] : memref<32xi32>
    %km = arith.andi %k, %mask : i32
    %ki = arith.index_cast %km : i32 to index
    memref.store %s, %c[%ki] : memref<34xi32>
  } {hls.label = "alias", hls.unroll = 2}
  %buf = memref.alloc() {hls.name = "buf", hls.ports = 2} : memref<32xi32>
  affine.for %i = 0 to 32 {
    %m = affine.load %c[%i] : memref<34xi32>
    %r = affine.load %c[%i + 1] : memref<34xi32>
    %s = arith.xori %m, %r : i32
    affine.store %s, %buf[%i] : memref<32xi32>
  } {hls.label = "local", hls.unroll = 2}
  affine.for %i = 0 to 32 {
    %v = affine.load %buf[%i] : memref<32xi32>
    affine.store %v, %b[%i] : memref<34xi32>
  } {hls.label = "out"}
  return
}
