// Datapath rewriting with e-graphs (on by default, `--no-rewrite` turns
// it off): at a 5 ns clock a recurrence of three chained adds closes in
// three cycles; reassociated (the carried value added last) it closes in
// one, so the loop pipelines at II 1 instead of 3. A chain of seven adds
// becomes a balanced tree (latency 8 -> 4). On a device without DSP
// blocks, products by constants are built as shifts and adds
// (constant_product.rs), which the cost model prices as such: nothing
// is left to rewrite. Floats are never
// reassociated. Each design co-simulates bit for bit, lints clean and
// synthesises for the iCE40.
// RUN: rm -rf %t.r %t.n %t.c %t.m %t.f
// RUN: silica hls %s --top recur --clock-ns 5 -o %t.r --sim | FileCheck %s --check-prefix=RECUR
// RUN: verilator --lint-only -Wall %t.r/recur.sv
// RUN: yosys -q -p "read_verilog -sv %t.r/recur.sv; synth_ice40 -dsp -top recur"
// RUN: silica hls %s --top recur --clock-ns 5 --no-rewrite -o %t.n --sim | FileCheck %s --check-prefix=OFF
// RUN: silica hls %s --top chain --clock-ns 5 -o %t.c --sim | FileCheck %s --check-prefix=CHAIN
// RUN: verilator --lint-only -Wall %t.c/chain.sv
// RUN: yosys -q -p "read_verilog -sv %t.c/chain.sv; synth_ice40 -dsp -top chain"
// RUN: silica hls %s --top cmul --target ice40-hx8k -o %t.m --sim | FileCheck %s --check-prefix=CMUL
// RUN: FileCheck %s --check-prefix=CMUL-HW < %t.m/cmul.hw.mlir
// RUN: verilator --lint-only -Wall %t.m/cmul.sv
// RUN: yosys -q -p "read_verilog -sv %t.m/cmul.sv; synth_ice40 -dsp -top cmul"
// RUN: silica hls %s --top fsum --clock-ns 5 -o %t.f --sim | FileCheck %s --check-prefix=FLOAT
// RUN: rm -rf %t.k %t.kn
// RUN: silica hls %s --top calls --clock-ns 5 -o %t.k --sim | FileCheck %s --check-prefix=CALLS
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module calls %t.k/calls.sv
// RUN: yosys -q -p "read_verilog -sv %t.k/calls.sv; synth_ice40 -dsp -top calls"
// RUN: silica hls %s --top calls --clock-ns 5 --no-rewrite -o %t.kn --sim | FileCheck %s --check-prefix=CALLS-OFF

// RECUR: co-simulation (seed 1): 193 values match, latency 69 cycles
// RECUR: recur/0: trip 64, pipelined, II 1 (ResMII 1, RecMII 1), depth 5
// RECUR: datapath rewriting (e-graphs): 1 expression(s) rewritten, kept, its schedule is better
// RECUR-NEXT: before: latency 195; recur/0 II 3 (RecMII 3) depth 5
// RECUR-NEXT: after: latency 69; recur/0 II 1 (RecMII 1) depth 5
// RECUR-NEXT: recur/0: ((carried0@0 + load#0) + load#1) + load#2 -> carried0@0 + {{.*}}
// OFF: co-simulation (seed 1): 193 values match, latency 195 cycles
// OFF: recur/0: trip 64, pipelined, II 3 (ResMII 1, RecMII 3), depth 5
// OFF: datapath rewriting (e-graphs): off (--no-rewrite)
func.func @recur(%a: memref<64xi32>, %b: memref<64xi32>, %c: memref<64xi32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = affine.for %i = 0 to 64 iter_args(%acc = %c0) -> (i32) {
    %x = affine.load %a[%i] : memref<64xi32>
    %y = affine.load %b[%i] : memref<64xi32>
    %z = affine.load %c[%i] : memref<64xi32>
    %s1 = arith.addi %acc, %x : i32
    %s2 = arith.addi %s1, %y : i32
    %s3 = arith.addi %s2, %z : i32
    affine.yield %s3 : i32
  }
  return %r : i32
}

// CHAIN: co-simulation (seed 1): 1 value matches, latency 4 cycles
// CHAIN: datapath rewriting (e-graphs): 1 expression(s) rewritten, kept, its schedule is better
// CHAIN-NEXT: before: latency 8;
// CHAIN-NEXT: after: latency 4;
// CHAIN-NEXT: chain: ((((((a + b) + c) + d) + e) + f) + g) + h -> (({{[a-h]}} + {{[a-h]}}) + ({{[a-h]}} + {{[a-h]}})) + (({{[a-h]}} + {{[a-h]}}) + ({{[a-h]}} + {{[a-h]}}))
func.func @chain(%a: i32 {hls.name = "a"}, %b: i32 {hls.name = "b"}, %c: i32 {hls.name = "c"},
                 %d: i32 {hls.name = "d"}, %e: i32 {hls.name = "e"}, %f: i32 {hls.name = "f"},
                 %g: i32 {hls.name = "g"}, %h: i32 {hls.name = "h"}) -> i32 {
  %s1 = arith.addi %a, %b : i32
  %s2 = arith.addi %s1, %c : i32
  %s3 = arith.addi %s2, %d : i32
  %s4 = arith.addi %s3, %e : i32
  %s5 = arith.addi %s4, %f : i32
  %s6 = arith.addi %s5, %g : i32
  %s7 = arith.addi %s6, %h : i32
  return %s7 : i32
}

// CMUL: co-simulation (seed 1): 64 values match
// CMUL: products by constants: 2 as shifts and adds, 0 negated, 0 on multipliers (multipliers are scarce: every one in LUTs)
// CMUL: datapath rewriting (e-graphs): no cheaper integer expression found
// CMUL-HW-NOT: comb.mul
func.func @cmul(%a: memref<32xi32>, %o: memref<32xi32>) {
  affine.for %i = 0 to 32 {
    %x = affine.load %a[%i] : memref<32xi32>
    %c10 = arith.constant 10 : i32
    %c7 = arith.constant -7 : i32
    %p = arith.muli %x, %c10 : i32
    %q = arith.muli %x, %c7 : i32
    %s = arith.xori %p, %q : i32
    affine.store %s, %o[%i] : memref<32xi32>
  }
  return
}

// FLOAT: co-simulation (seed 1): 49 values match
// FLOAT: datapath rewriting (e-graphs): no cheaper integer expression found
func.func @fsum(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 16 iter_args(%acc = %c0) -> (f32) {
    %x = affine.load %a[%i] : memref<16xf32>
    %y = affine.load %b[%i] : memref<16xf32>
    %z = affine.load %c[%i] : memref<16xf32>
    %s1 = arith.addf %acc, %x : f32
    %s2 = arith.addf %s1, %y : f32
    %s3 = arith.addf %s2, %z : f32
    affine.yield %s3 : f32
  }
  return %r : f32
}

// Callees instantiated as submodules are rewritten too, each judged by
// its own schedule: @recur's recurrence closes in one cycle in the
// callee, so each call takes 69 cycles instead of 195 (the kernel 142
// instead of 394), and the report says what changed in it.
// CALLS: co-simulation (seed 1): 193 values match, latency 142 cycles
// CALLS: datapath rewriting (e-graphs): no cheaper integer expression found
// CALLS-NEXT: datapath rewriting (e-graphs) in callee recur: 1 expression(s) rewritten, kept, its schedule is better
// CALLS-NEXT: before: latency 195; recur/0 II 3 (RecMII 3) depth 5
// CALLS-NEXT: after: latency 69; recur/0 II 1 (RecMII 1) depth 5
// CALLS-NEXT: recur/0: ((carried0@0 + load#0) + load#1) + load#2 -> carried0@0 + {{.*}}
// CALLS-OFF: co-simulation (seed 1): 193 values match, latency 394 cycles
// CALLS-OFF: datapath rewriting (e-graphs): off (--no-rewrite)
// CALLS-OFF-NOT: in callee
func.func @calls(%a: memref<64xi32>, %b: memref<64xi32>, %c: memref<64xi32>) -> i32 {
  %x = func.call @recur(%a, %b, %c) : (memref<64xi32>, memref<64xi32>, memref<64xi32>) -> i32
  %y = func.call @recur(%c, %a, %b) : (memref<64xi32>, memref<64xi32>, memref<64xi32>) -> i32
  %s = arith.xori %x, %y : i32
  return %s : i32
}
