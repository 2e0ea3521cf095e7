// math.exp, math.log and math.powf on f32 and f64: silica's pipelined
// operator circuits (table and polynomial in fixed point,
// hls/src/float/exp.rs, log.rs, pow.rs), faithfully rounded; the
// co-simulation compares their results with the host's libm within
// 1 ulp (the brief's one tolerance, announced in its report line) and
// everything else bit for bit. Random inputs include zeros, subnormals,
// infinities and NaNs; lint clean. The f64 kernel runs at 40 ns: its
// three operators are large, and a shallower pipeline has fewer registers
// for Verilator to compile (the operators' own tests,
// hls/tests/float_transcendental.rs, run them pipelined and
// combinational).
// RUN: rm -rf %t.d %t.w
// RUN: silica hls %s --top trans -o %t.d --sim | FileCheck %s
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.d/trans.sv
// RUN: silica hls %s --top wide -o %t.w --clock-ns 40 --sim --seed 3 | FileCheck %s --check-prefix=F64
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.w/wide.sv

// CHECK: co-simulation (seed 1): 80 values match (floats within 1 ulp)
// CHECK: trans/i: trip 16, pipelined, II 1 (ResMII 1, RecMII 1)
// CHECK: silica_fexp_f32_l{{[0-9]+}}: {{[0-9]+}} cycles
// CHECK: silica_flog_f32_l{{[0-9]+}}: {{[0-9]+}} cycles
// CHECK: silica_fpow_f32_l{{[0-9]+}}: {{[0-9]+}} cycles
func.func @trans(%x: memref<16xf32> {hls.name = "X"}, %y: memref<16xf32> {hls.name = "Y"},
                 %e: memref<16xf32> {hls.name = "E"}, %l: memref<16xf32> {hls.name = "L"},
                 %p: memref<16xf32> {hls.name = "P"}) {
  affine.for %i = 0 to 16 {
    %a = affine.load %x[%i] : memref<16xf32>
    %b = affine.load %y[%i] : memref<16xf32>
    %ea = math.exp %a : f32
    %la = math.log %a : f32
    %pa = math.powf %a, %b : f32
    affine.store %ea, %e[%i] : memref<16xf32>
    affine.store %la, %l[%i] : memref<16xf32>
    affine.store %pa, %p[%i] : memref<16xf32>
  } {hls.label = "i"}
  return
}

// f64, with the results feeding f64 arithmetic: exp(-a·b), log|a|, a^b.
// F64: co-simulation (seed 3): 60 values match (floats within 1 ulp)
// F64: wide/i: trip 12, pipelined, II 1 (ResMII 1, RecMII 1)
// F64: silica_fexp_f64_l{{[0-9]+}}: {{[0-9]+}} cycles
// F64: silica_flog_f64_l{{[0-9]+}}: {{[0-9]+}} cycles
// F64: silica_fpow_f64_l{{[0-9]+}}: {{[0-9]+}} cycles
func.func @wide(%x: memref<12xf64> {hls.name = "X"}, %y: memref<12xf64> {hls.name = "Y"},
                %e: memref<12xf64> {hls.name = "E"}, %l: memref<12xf64> {hls.name = "L"},
                %p: memref<12xf64> {hls.name = "P"}) {
  affine.for %i = 0 to 12 {
    %a = affine.load %x[%i] : memref<12xf64>
    %b = affine.load %y[%i] : memref<12xf64>
    %ab = arith.mulf %a, %b : f64
    %n = arith.negf %ab : f64
    %ea = math.exp %n : f64
    %aa = math.absf %a : f64
    %la = math.log %aa : f64
    %pa = math.powf %a, %b : f64
    affine.store %ea, %e[%i] : memref<12xf64>
    affine.store %la, %l[%i] : memref<12xf64>
    affine.store %pa, %p[%i] : memref<12xf64>
  } {hls.label = "i"}
  return
}
