// math.exp, math.log and math.powf on f32: silica's pipelined operator
// circuits (table and polynomial in fixed point, hls/src/float/exp.rs,
// log.rs, pow.rs), faithfully rounded; the co-simulation compares their
// results with the host's libm within 1 ulp (the brief's one tolerance,
// announced in its report line) and everything else bit for bit. Random
// inputs include zeros, subnormals, infinities and NaNs; lint clean.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top trans -o %t.d --sim | FileCheck %s
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.d/trans.sv
// RUN: not silica hls %s --top wide -o %t.w 2>&1 | FileCheck %s --check-prefix=F64
// RUN: test ! -e %t.w

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

// F64: transcendental.mlir:[[# @LINE + 2]]:8: error: 'math.exp' is computed on f32 only by silica hls
func.func @wide(%a: f64) -> f64 {
  %r = math.exp %a : f64
  return %r : f64
}
