// On-chip memories go where yosys maps them (flow/estimate/rams.rs): a
// 16x32 buffer is eight 16x4 LUT RAM cells on ECP5 (cheaper than a block
// RAM), and two 16-bit block RAMs on iCE40, which has no LUT RAM; the
// estimate and the placed design agree on both.
// RUN: rm -rf %t.ecp5 %t.ice40
// RUN: silica hls %s --top reverse -o %t.ecp5 --bitstream | FileCheck %s --check-prefix=ECP5
// RUN: silica hls %s --top reverse -o %t.ice40 --target ice40-up5k --bitstream | FileCheck %s --check-prefix=ICE40
// RUN: FileCheck %s --check-prefix=JSON < %t.ecp5/reverse.json

// ECP5: resources (estimate): {{[0-9]+}} LUT, {{[0-9]+}} FF, 0 DSP, 0 BRAM, 8 LUT RAM
// ECP5: DSP, BRAM and LUT RAM exact
// ECP5: resources (measured by yosys and nextpnr, ecp5-25k CABGA381): {{[0-9]+}} LUT, {{[0-9]+}} FF, 0 DSP, 0 BRAM, 8 LUT RAM, {{[0-9]+}} IO
// ICE40: resources (estimate): {{[0-9]+}} LC ({{[0-9]+}} LUT4), {{[0-9]+}} FF, 0 DSP, 2 BRAM
// ICE40: DSP and BRAM exact
// ICE40: resources (measured by yosys and nextpnr, ice40-up5k sg48): {{.*}}, 0 DSP, 2 BRAM, {{[0-9]+}} IO
// JSON: "lut_rams": 3036
// JSON: "lut_ram": 8
// JSON: "lut_ram": 8
func.func @reverse(%a: memref<16xi32>, %b: memref<16xi32>) {
  %t = memref.alloc() : memref<16xi32>
  affine.for %i = 0 to 16 {
    %v = affine.load %a[%i] : memref<16xi32>
    affine.store %v, %t[15 - %i] : memref<16xi32>
  }
  affine.for %i = 0 to 16 {
    %v = affine.load %t[%i] : memref<16xi32>
    affine.store %v, %b[%i] : memref<16xi32>
  }
  return
}
