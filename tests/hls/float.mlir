// Floating point: f32 and f64 arithmetic, comparisons, selections and
// conversions as instances of silica's pipelined IEEE-754 operator
// circuits (latency chosen for the clock), loop-carried float
// recurrences whose II is the adder's latency plus its carried register
// (the adder's path fills its L + 1 stages), random
// inputs with zeros, subnormals, infinities and NaNs, co-simulated bit
// for bit (NaN as NaN); lint clean and accepted by yosys.
// The operator modules share the design's one file: Verilator wants one
// module per file of its name (DECLFILENAME), as in tests/verilog.
// The predicted clock is the slowest float operator stage's where that
// is longer than every other register-to-register path (its stages by
// the generator's estimate, scaled to the operator's measured delay).
// RUN: rm -rf %t.v %t.d %t.g %t.s %t.c %t.q %t.e
// RUN: silica hls %s --top vaddf -o %t.e --target ecp5-25k --clock-ns 30 | FileCheck %s --check-prefix=ECP5
// RUN: silica hls %s --top vaddf -o %t.v --sim | FileCheck %s --check-prefix=VADD
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.v/vaddf.sv
// RUN: silica hls %s --top dot -o %t.d --sim --seed 5 | FileCheck %s --check-prefix=DOT
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.d/dot.sv
// RUN: silica hls %s --top gemmf -o %t.g --sim | FileCheck %s --check-prefix=GEMM
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.g/gemmf.sv
// RUN: silica hls %s --top select -o %t.s --sim --seed 2 | FileCheck %s --check-prefix=SELECT
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.s/select.sv
// RUN: yosys -q -p "read_verilog -sv %t.s/select.sv; synth_ice40 -dsp -top select"
// RUN: silica hls %s --top convert -o %t.c --sim --seed 3 | FileCheck %s --check-prefix=CONVERT
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.c/convert.sv
// RUN: silica hls %s --top divsqrt -o %t.q --sim --seed 4 | FileCheck %s --check-prefix=DIVSQRT
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.q/divsqrt.sv

// ECP5: clock (estimate): {{[0-9.]+}} ns ({{[0-9.]+}} MHz), longest path: silica_fmul_f32_l1 (its slowest stage)
// VADD: co-simulation (seed 1): 96 values match, latency 46 cycles
// VADD: vaddf/i: trip 32, pipelined, II 1 (ResMII 1, RecMII 1), depth 14
// VADD: float operators (latency, slowest stage as measured):
// VADD-NEXT: silica_fadd_f32_l3: 3 cycles
// VADD-NEXT: silica_fmul_f32_l4: 4 cycles
// VADD-NEXT: silica_fsub_f32_l3: 3 cycles
func.func @vaddf(%a: memref<32xf32> {hls.name = "A"}, %b: memref<32xf32> {hls.name = "B"},
                 %c: memref<32xf32> {hls.name = "C"}) {
  affine.for %i = 0 to 32 {
    %x = affine.load %a[%i] : memref<32xf32>
    %y = affine.load %b[%i] : memref<32xf32>
    %s = arith.addf %x, %y : f32
    %m = arith.mulf %s, %x : f32
    %d = arith.subf %m, %y : f32
    affine.store %d, %c[%i] : memref<32xf32>
  } {hls.label = "i"}
  return
}

// The accumulation's RecMII is the adder's 3 cycles and its register.
// DOT: co-simulation (seed 5): 129 values match, latency 263 cycles
// DOT: dot/i: trip 64, pipelined, II 4 (ResMII 1, RecMII 4), depth 10
func.func @dot(%a: memref<64xf32> {hls.name = "A"}, %b: memref<64xf32> {hls.name = "B"}) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 64 iter_args(%acc = %z) -> (f32) {
    %x = affine.load %a[%i] : memref<64xf32>
    %y = affine.load %b[%i] : memref<64xf32>
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    affine.yield %s : f32
  } {hls.label = "i"}
  return %r : f32
}

// GEMM: co-simulation (seed 1): 48 values match, latency 465 cycles
// GEMM: gemmf/i/j/k: trip 4, pipelined, II 4 (ResMII 1, RecMII 4), depth 14
func.func @gemmf(%alpha: f32 {hls.name = "alpha"}, %A: memref<4x4xf32> {hls.name = "A"},
                 %B: memref<4x4xf32> {hls.name = "B"}, %C: memref<4x4xf32> {hls.name = "C"}) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      %c0 = affine.load %C[%i, %j] : memref<4x4xf32>
      %s = affine.for %k = 0 to 4 iter_args(%acc = %c0) -> (f32) {
        %x = affine.load %A[%i, %k] : memref<4x4xf32>
        %y = affine.load %B[%k, %j] : memref<4x4xf32>
        %ax = arith.mulf %alpha, %x : f32
        %p = arith.mulf %ax, %y : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      } {hls.label = "k"}
      affine.store %s, %C[%i, %j] : memref<4x4xf32>
    } {hls.label = "j"}
  } {hls.label = "i"}
  return
}

// SELECT: co-simulation (seed 2): 128 values match, latency 35 cycles
// SELECT: select/i: trip 32, pipelined, II 1 (ResMII 1, RecMII 1), depth 3
// All sixteen cmpf predicates (one bit each), maximumf/minimumf, negf,
// absf and select.
func.func @select(%a: memref<32xf32> {hls.name = "A"}, %b: memref<32xf32> {hls.name = "B"},
                  %lo: f32 {hls.name = "lo"}, %c: memref<32xf32> {hls.name = "C"},
                  %f: memref<32xi16> {hls.name = "F"}) {
  %limit = arith.constant 100.0 : f32
  affine.for %i = 0 to 32 {
    %x = affine.load %a[%i] : memref<32xf32>
    %y = affine.load %b[%i] : memref<32xf32>
    %m = arith.maximumf %x, %lo : f32
    %n = arith.minimumf %m, %limit : f32
    %neg = arith.negf %n : f32
    %abs = math.absf %y : f32
    %lt = arith.cmpf olt, %x, %y : f32
    %sel = arith.select %lt, %neg, %abs : f32
    affine.store %sel, %c[%i] : memref<32xf32>
    %p0 = arith.cmpf false, %x, %y : f32
    %p1 = arith.cmpf oeq, %x, %y : f32
    %p2 = arith.cmpf ogt, %x, %y : f32
    %p3 = arith.cmpf oge, %x, %y : f32
    %p4 = arith.cmpf olt, %x, %y : f32
    %p5 = arith.cmpf ole, %x, %y : f32
    %p6 = arith.cmpf one, %x, %y : f32
    %p7 = arith.cmpf ord, %x, %y : f32
    %p8 = arith.cmpf ueq, %x, %y : f32
    %p9 = arith.cmpf ugt, %x, %y : f32
    %p10 = arith.cmpf uge, %x, %y : f32
    %p11 = arith.cmpf ult, %x, %y : f32
    %p12 = arith.cmpf ule, %x, %y : f32
    %p13 = arith.cmpf une, %x, %y : f32
    %p14 = arith.cmpf uno, %x, %y : f32
    %p15 = arith.cmpf true, %x, %y : f32
    %e0 = arith.extui %p0 : i1 to i16
    %e1 = arith.extui %p1 : i1 to i16
    %e2 = arith.extui %p2 : i1 to i16
    %e3 = arith.extui %p3 : i1 to i16
    %e4 = arith.extui %p4 : i1 to i16
    %e5 = arith.extui %p5 : i1 to i16
    %e6 = arith.extui %p6 : i1 to i16
    %e7 = arith.extui %p7 : i1 to i16
    %e8 = arith.extui %p8 : i1 to i16
    %e9 = arith.extui %p9 : i1 to i16
    %e10 = arith.extui %p10 : i1 to i16
    %e11 = arith.extui %p11 : i1 to i16
    %e12 = arith.extui %p12 : i1 to i16
    %e13 = arith.extui %p13 : i1 to i16
    %e14 = arith.extui %p14 : i1 to i16
    %e15 = arith.extui %p15 : i1 to i16
    %k1 = arith.constant 1 : i16
    %k2 = arith.constant 2 : i16
    %k3 = arith.constant 3 : i16
    %k4 = arith.constant 4 : i16
    %k5 = arith.constant 5 : i16
    %k6 = arith.constant 6 : i16
    %k7 = arith.constant 7 : i16
    %k8 = arith.constant 8 : i16
    %k9 = arith.constant 9 : i16
    %k10 = arith.constant 10 : i16
    %k11 = arith.constant 11 : i16
    %k12 = arith.constant 12 : i16
    %k13 = arith.constant 13 : i16
    %k14 = arith.constant 14 : i16
    %k15 = arith.constant 15 : i16
    %s1 = arith.shli %e1, %k1 : i16
    %s2 = arith.shli %e2, %k2 : i16
    %s3 = arith.shli %e3, %k3 : i16
    %s4 = arith.shli %e4, %k4 : i16
    %s5 = arith.shli %e5, %k5 : i16
    %s6 = arith.shli %e6, %k6 : i16
    %s7 = arith.shli %e7, %k7 : i16
    %s8 = arith.shli %e8, %k8 : i16
    %s9 = arith.shli %e9, %k9 : i16
    %s10 = arith.shli %e10, %k10 : i16
    %s11 = arith.shli %e11, %k11 : i16
    %s12 = arith.shli %e12, %k12 : i16
    %s13 = arith.shli %e13, %k13 : i16
    %s14 = arith.shli %e14, %k14 : i16
    %s15 = arith.shli %e15, %k15 : i16
    %o1 = arith.ori %e0, %s1 : i16
    %o2 = arith.ori %o1, %s2 : i16
    %o3 = arith.ori %o2, %s3 : i16
    %o4 = arith.ori %o3, %s4 : i16
    %o5 = arith.ori %o4, %s5 : i16
    %o6 = arith.ori %o5, %s6 : i16
    %o7 = arith.ori %o6, %s7 : i16
    %o8 = arith.ori %o7, %s8 : i16
    %o9 = arith.ori %o8, %s9 : i16
    %o10 = arith.ori %o9, %s10 : i16
    %o11 = arith.ori %o10, %s11 : i16
    %o12 = arith.ori %o11, %s12 : i16
    %o13 = arith.ori %o12, %s13 : i16
    %o14 = arith.ori %o13, %s14 : i16
    %o15 = arith.ori %o14, %s15 : i16
    affine.store %o15, %f[%i] : memref<32xi16>
  } {hls.label = "i"}
  return
}

// CONVERT: co-simulation (seed 3): 192 values match, latency 55 cycles
// CONVERT: convert/i: trip 32, pipelined, II 1 (ResMII 1, RecMII 1), depth 23
// CONVERT: silica_extf_to_f64_from_f32_l2: 2 cycles
// extf/truncf, sitofp/uitofp from i32 and i64, fptosi to i32 and i64
// (NaN, infinities and out-of-range values give the integer indefinite
// value on both sides), fptoui guarded into its defined range, f64
// arithmetic.
func.func @convert(%a: memref<32xf32> {hls.name = "A"}, %n: memref<32xi32> {hls.name = "N"},
                   %d: memref<32xf64> {hls.name = "D"}, %o: memref<32xf32> {hls.name = "O"},
                   %q: memref<32xi32> {hls.name = "Q"}, %w: memref<32xi64> {hls.name = "W"}) {
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 4294967296.0 : f32
  affine.for %i = 0 to 32 {
    %x = affine.load %a[%i] : memref<32xf32>
    %k = affine.load %n[%i] : memref<32xi32>
    %e = arith.extf %x : f32 to f64
    %sf = arith.sitofp %k : i32 to f64
    %uf = arith.uitofp %k : i32 to f64
    %p = arith.mulf %e, %sf : f64
    %s = arith.addf %p, %uf : f64
    affine.store %s, %d[%i] : memref<32xf64>
    %t = arith.truncf %s : f64 to f32
    %kf = arith.sitofp %k : i32 to f32
    %r = arith.subf %t, %kf : f32
    affine.store %r, %o[%i] : memref<32xf32>
    %si = arith.fptosi %x : f32 to i32
    %nonneg = arith.cmpf oge, %x, %zero : f32
    %small = arith.cmpf olt, %x, %top : f32
    %ok = arith.andi %nonneg, %small : i1
    %safe = arith.select %ok, %x, %zero : f32
    %ui = arith.fptoui %safe : f32 to i32
    %mix = arith.xori %si, %ui : i32
    affine.store %mix, %q[%i] : memref<32xi32>
    %k64 = arith.extsi %k : i32 to i64
    %big = arith.sitofp %k64 : i64 to f64
    %sum = arith.addf %big, %e : f64
    %back = arith.fptosi %sum : f64 to i64
    %u64 = arith.uitofp %k64 : i64 to f32
    %bits = arith.bitcast %u64 : f32 to i32
    %bits64 = arith.extui %bits : i32 to i64
    %out = arith.addi %back, %bits64 : i64
    affine.store %out, %w[%i] : memref<32xi64>
  } {hls.label = "i"}
  return
}

// DIVSQRT: co-simulation (seed 4): 192 values match, latency 45 cycles
// DIVSQRT: divsqrt/i: trip 32, pipelined, II 1 (ResMII 1, RecMII 1), depth 13
// DIVSQRT: silica_fdiv_f32_l9: 9 cycles
// DIVSQRT: silica_fsqrt_f32_l8: 8 cycles
// DIVSQRT: silica_fma_f32_l6: 6 cycles
// divf, sqrt and fma, pipelined (f64 in hls/tests/float_divide.rs).
func.func @divsqrt(%a: memref<32xf32> {hls.name = "A"}, %b: memref<32xf32> {hls.name = "B"},
                   %c: memref<32xf32> {hls.name = "C"}, %q: memref<32xf32> {hls.name = "Q"},
                   %r: memref<32xf32> {hls.name = "R"}, %f: memref<32xf32> {hls.name = "F"}) {
  affine.for %i = 0 to 32 {
    %x = affine.load %a[%i] : memref<32xf32>
    %y = affine.load %b[%i] : memref<32xf32>
    %z = affine.load %c[%i] : memref<32xf32>
    %div = arith.divf %x, %y : f32
    affine.store %div, %q[%i] : memref<32xf32>
    %root = math.sqrt %x : f32
    affine.store %root, %r[%i] : memref<32xf32>
    %fma = math.fma %x, %y, %z : f32
    affine.store %fma, %f[%i] : memref<32xf32>
  } {hls.label = "i"}
  return
}
