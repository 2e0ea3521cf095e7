// Conditionals and scf loops: scf.for with iter_args over index bounds,
// scf.if with results (if-converted: both branches computed, the result
// selected), affine.if around memory accesses (predicated loads and
// stores), and math.absi/ctlz/cttz/ctpop. Co-simulated bit for bit;
// lint clean and accepted by yosys.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top branches -o %t.d --sim | FileCheck %s
// RUN: verilator --lint-only -Wall %t.d/branches.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/branches.sv; synth_ice40 -dsp -top branches"
// RUN: silica hls %s --top branches -o %t.seq --no-pipeline --sim --seed 4 | FileCheck %s --check-prefix=SEQ

// CHECK: co-simulation (seed 1): 65 values match
// CHECK: branches/0: trip 32, pipelined, II 1 (ResMII 1, RecMII 1)
// CHECK: branches/1: trip 32, pipelined, II 2 (ResMII 2, RecMII 1)
// SEQ: co-simulation (seed 4): 65 values match
func.func @branches(%a: memref<32xi16>, %b: memref<32xi16>) -> i32 {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %c32 step %c1 iter_args(%acc = %z) -> (i32) {
    %x = memref.load %a[%i] : memref<32xi16>
    %zero = arith.constant 0 : i16
    %neg = arith.cmpi slt, %x, %zero : i16
    %y = scf.if %neg -> (i16) {
      %ab = math.absi %x : i16
      scf.yield %ab : i16
    } else {
      %pc = math.ctpop %x : i16
      scf.yield %pc : i16
    }
    memref.store %y, %b[%i] : memref<32xi16>
    %lz = math.ctlz %x : i16
    %tz = math.cttz %x : i16
    %s = arith.addi %lz, %tz : i16
    %se = arith.extui %s : i16 to i32
    %n = arith.addi %acc, %se : i32
    scf.yield %n : i32
  }
  affine.for %i = 0 to 32 {
    affine.if affine_set<(d0) : (d0 - 16 >= 0)>(%i) {
      %v = affine.load %b[%i] : memref<32xi16>
      %w = arith.addi %v, %v : i16
      affine.store %w, %b[%i] : memref<32xi16>
    }
  }
  return %r : i32
}
