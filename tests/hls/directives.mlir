// Directives as attributes on the ops: hls.unroll on a reduction,
// hls.pipeline = true on a loop with a loop inside (unrolled fully, then
// pipelined), a target II above the bound (honoured) and below it (a
// warning naming the bound: the memory ports and the recurrence, a
// square, on a multiplier),
// hls.ports = 2 on memref arguments and on an on-chip RAM (true dual
// port, cyclically partitioned into two banks, each access reaching
// both as its bank is not known statically), and a directive that
// cannot be honoured (a flatten of a nest whose code before the inner
// loop reads memory the nest writes) as a warning at
// the op; each directive's
// outcome in the report. Co-simulated bit for bit; lint clean; accepted
// by yosys.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top attrs -o %t.d --sim > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=REC < %t.err
// RUN: FileCheck %s --check-prefix=FLAT < %t.err
// RUN: FileCheck %s --check-prefix=JSON < %t.d/attrs.json
// RUN: FileCheck %s --check-prefix=SV < %t.d/attrs.sv
// RUN: verilator --lint-only -Wall %t.d/attrs.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/attrs.sv; synth_ice40 -dsp -top attrs"

// CHECK: co-simulation (seed 1): 177 values match, latency 371 cycles
// CHECK: attrs/dot: trip 8, pipelined, II 2 (ResMII 2, RecMII 1)
// CHECK: attrs/fir: trip 32, pipelined, II 4 (ResMII 4, RecMII 1)
// CHECK: attrs/rec: trip 31, pipelined, II 3 (ResMII 2, RecMII 3)
// CHECK: attrs/fill: trip 32, pipelined, II 2 (ResMII 1, RecMII 1)
// CHECK: attrs/mix: trip 32, pipelined, II 1 (ResMII 1, RecMII 1)
// CHECK: attrs/imperfect: trip 4, sequential
// CHECK: directives:
// CHECK-NEXT: a: ports = 2 (attribute): honoured: 2 external memory ports
// CHECK-NEXT: attrs/dot: unroll 4 (attribute): honoured: body repeated 4 times
// CHECK-NEXT: attrs/fill: pipeline II=2 (attribute): honoured: pipelined at II 2 (ResMII 1, RecMII 1)
// CHECK-NEXT: attrs/fir: pipeline = true (attribute): honoured: the 1 loop(s) inside unrolled fully (8 copies of the body)
// CHECK-NEXT: attrs/imperfect: flatten (attribute): not honoured: the code before the loop inside attrs/imperfect reads y, which the nest writes
// CHECK-NEXT: attrs/rec: pipeline II=1 (attribute): not honoured: loop cannot be pipelined at II=1
// CHECK-NEXT: b: ports = 2 (attribute): honoured
// CHECK-NEXT: buf: partition cyclic dim 1 factor 2 (attribute): honoured: 2 banks of 16
// CHECK-NEXT: buf: ports = 2 (attribute): honoured: 2 read/write ports on every bank

// JSON: "name": "a",
// JSON: "ports": 2,
// SV: output {{.*}}a_address1
// SV: input {{.*}}a_q1
func.func @attrs(%a: memref<32xi32> {hls.name = "a", hls.ports = 2},
                 %b: memref<32xi32> {hls.name = "b", hls.ports = 2},
                 %x: memref<40xi16> {hls.name = "x", hls.ports = 2},
                 %h: memref<8xi16> {hls.name = "h", hls.ports = 2},
                 %y: memref<32xi32> {hls.name = "y"},
                 %r: memref<32xi32> {hls.name = "r"}) -> i32 {
  %z = arith.constant 0 : i32
  %d = affine.for %i = 0 to 32 iter_args(%acc = %z) -> (i32) {
    %p = affine.load %a[%i] : memref<32xi32>
    %q = affine.load %b[%i] : memref<32xi32>
    %m = arith.muli %p, %q : i32
    %s = arith.addi %acc, %m : i32
    affine.yield %s : i32
  } {hls.label = "dot", hls.unroll = 4}
  affine.for %n = 0 to 32 {
    %acc = affine.for %k = 0 to 8 iter_args(%s = %z) -> (i32) {
      %xv = affine.load %x[%n + %k] : memref<40xi16>
      %hv = affine.load %h[%k] : memref<8xi16>
      %xe = arith.extsi %xv : i16 to i32
      %he = arith.extsi %hv : i16 to i32
      %p = arith.muli %xe, %he : i32
      %t = arith.addi %s, %p : i32
      affine.yield %t : i32
    } {hls.label = "k"}
    affine.store %acc, %y[%n] : memref<32xi32>
  } {hls.label = "fir", hls.pipeline = true}
  %c3 = arith.constant 3 : i32
  // REC: directives.mlir:[[# @LINE + 1]]:3: warning: pipeline II=1 on attrs/rec is not honoured: loop cannot be pipelined at II=1: memory r has 1 port(s) for 2 accesses per iteration, which needs II >= 2; loop-carried dependence on r with distance 1 needs II >= 3; pipelined at II 3
  affine.for %i = 1 to 32 {
    %p = affine.load %r[%i - 1] : memref<32xi32>
    %m = arith.muli %p, %p : i32
    %s = arith.addi %m, %c3 : i32
    affine.store %s, %r[%i] : memref<32xi32>
  } {hls.label = "rec", hls.pipeline = 1}
  %buf = memref.alloc() {hls.name = "buf", hls.ports = 2, hls.partition = {kind = "cyclic", factor = 2}} : memref<32xi32>
  affine.for %i = 0 to 32 {
    %v = affine.load %b[%i] : memref<32xi32>
    affine.store %v, %buf[%i] : memref<32xi32>
  } {hls.label = "fill", hls.pipeline = 2}
  affine.for %i = 0 to 32 {
    %v = affine.load %buf[%i] : memref<32xi32>
    %w = affine.load %buf[31 - %i] : memref<32xi32>
    %s = arith.addi %v, %w : i32
    affine.store %s, %b[%i] : memref<32xi32>
  } {hls.label = "mix"}
  // FLAT: directives.mlir:[[# @LINE + 1]]:3: warning: flatten on attrs/imperfect is not honoured: the code before the loop inside attrs/imperfect reads y, which the nest writes, and uses it beyond the inner loops' first iteration, so it cannot be sunk into the inner loop
  affine.for %i = 0 to 4 {
    %v = affine.load %y[%i] : memref<32xi32>
    affine.store %v, %y[%i + 4] : memref<32xi32>
    affine.for %j = 0 to 4 {
      %w = affine.load %y[%j] : memref<32xi32>
      %s = arith.addi %w, %v : i32
      affine.store %s, %y[%j + 8] : memref<32xi32>
    }
  } {hls.label = "imperfect", hls.flatten}
  return %d : i32
}
