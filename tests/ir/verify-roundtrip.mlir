// --verify-roundtrip prints the input in the generic and in the custom
// form (with locations), reads each back and compares: ops whose
// arguments carry locations (affine.for's induction variable, llvm.func's
// arguments) survive both. The affine maps of affine-maps.mlir print
// differently the second time (`d0 + d1 + 2 + 1` is read back as
// `d0 + d1 + 3`), which mlir-opt-22 reports too.
// RUN: silica opt --verify-roundtrip --split-input-file --allow-unregistered-dialect %s | FileCheck %s
// RUN: not silica opt --verify-roundtrip %S/affine-maps.mlir --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=DIFF

// CHECK-LABEL: func.func @loops
func.func @loops(%m: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %v = affine.load %m[%i] : memref<16xf32>
    affine.store %v, %m[%i] : memref<16xf32>
  }
  return
}

// -----

// CHECK-LABEL: llvm.func @args
llvm.func @args(%a: i32 loc("a"), %b: !llvm.ptr {llvm.noalias} loc("b")) -> i32 {
  llvm.return %a : i32
}

// -----

// CHECK-LABEL: hw.module @regs
hw.module @regs(in %clk: !seq.clock, in %d: i8, out q: i8) {
  %q = seq.compreg sym @q %d, %clk : i8
  hw.output %q : i8
}

// DIFF: error: 'builtin.module' op textual roundTrip testing roundtripped module differs from reference:
// DIFF: <<<<<<Reference
// DIFF: #map5 = affine_map<(d0, d1) -> (d0 * 2, d0 * 5, d0 + d1 + 2 + 1, d0 * -2 + d1)>
// DIFF: =====
// DIFF: #map5 = affine_map<(d0, d1) -> (d0 * 2, d0 * 5, d0 + d1 + 3, d0 * -2 + d1)>
// DIFF: >>>>>roundtripped
