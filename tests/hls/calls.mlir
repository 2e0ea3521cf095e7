// func.call of functions of the same module: each callee is a module of
// its own (hw.instance per call site, start/done handshake). A callee
// with scalar arguments and a result (@mac); a callee that reads and
// writes the memory it is passed and calls @mac itself (@scale), called
// with an external memory, a second external memory (a second instance
// whose scalar comes from the first call's result), and an on-chip RAM;
// a call inside a loop. Co-simulated bit for bit (Verilator and silica's
// simulator), lint clean, accepted by yosys. (Verilator wants one module
// per file of its name, DECLFILENAME; the design is one file.)
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica hls %s --top top -o %t.d --sim | FileCheck %s
// RUN: FileCheck %s --check-prefix=HW < %t.d/top.hw.mlir
// RUN: FileCheck %s --check-prefix=JSON < %t.d/top.json
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module top %t.d/top.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/top.sv; synth_ice40 -dsp -top top"
// RUN: silica hls %s --top looped -o %t.d --sim | FileCheck %s --check-prefix=LOOPED
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module looped %t.d/looped.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/looped.sv; synth_ice40 -dsp -top looped"

// CHECK: co-simulation (seed 1): 17 values match, latency [[LAT:[0-9]+]] cycles
// CHECK: latency: [[LAT]] cycles
// The static latency is exact: the callees' latencies are fixed.
// JSON: "min": [[LAT3:[0-9]+]],
// JSON-NEXT: "max": [[LAT3]]
// HW-DAG: hw.module @mac(
// HW-DAG: hw.module @scale(
// HW-DAG: hw.module @top(
// HW-DAG: hw.instance "call0_scale" @scale(
// HW-DAG: hw.instance "call1_scale" @scale(
// HW-DAG: hw.instance "call2_scale" @scale(
// HW-DAG: hw.instance "call3_mac" @mac(
func.func @mac(%a: i32, %b: i32, %c: i32) -> i32 {
  %p = arith.muli %a, %b : i32
  %s = arith.addi %p, %c : i32
  return %s : i32
}

func.func @scale(%v: memref<8xi32>, %k: i32) -> i32 {
  %z = arith.constant 0 : i32
  %r = affine.for %i = 0 to 8 iter_args(%acc = %z) -> (i32) {
    %x = affine.load %v[%i] : memref<8xi32>
    %y = func.call @mac(%x, %k, %acc) : (i32, i32, i32) -> i32
    affine.store %y, %v[%i] : memref<8xi32>
    affine.yield %y : i32
  }
  return %r : i32
}

func.func @top(%a: memref<8xi32>, %b: memref<8xi32>, %k: i32) -> i32 {
  %s1 = func.call @scale(%a, %k) : (memref<8xi32>, i32) -> i32
  %s2 = func.call @scale(%b, %s1) : (memref<8xi32>, i32) -> i32
  %buf = memref.alloca() {hls.name = "buf"} : memref<8xi32>
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i] : memref<8xi32>
    affine.store %x, %buf[%i] : memref<8xi32>
  }
  %s3 = func.call @scale(%buf, %s2) : (memref<8xi32>, i32) -> i32
  %r = func.call @mac(%s1, %s2, %s3) : (i32, i32, i32) -> i32
  affine.for %i = 0 to 8 {
    %x = affine.load %buf[%i] : memref<8xi32>
    %y = affine.load %b[%i] : memref<8xi32>
    %t = arith.xori %x, %y : i32
    affine.store %t, %b[%i] : memref<8xi32>
  }
  return %r : i32
}

// LOOPED: co-simulation (seed 1): 32 values match
// LOOPED: looped/0: trip 16, sequential
func.func @looped(%a: memref<16xi16>, %b: memref<16xi32>) {
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xi16>
    %xe = arith.extsi %x : i16 to i32
    %ii = arith.index_cast %i : index to i32
    %y = func.call @mac(%xe, %xe, %ii) : (i32, i32, i32) -> i32
    affine.store %y, %b[%i] : memref<16xi32>
  }
  return
}
