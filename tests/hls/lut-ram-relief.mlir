// Block RAMs run short (flow/estimate/rams.rs `lut_ram_relief`): 29
// banks of 64 words of 64 bits take two ECP5 block RAMs each (58 of the
// 25k's 56), so the flow keeps the bank that costs the fewest LUT RAM
// cells a block saved in LUT RAM (yosys's `ram_style = "distributed"`),
// and the estimate counts what synthesis maps.
// Co-simulated bit for bit; lint clean; yosys maps it as estimated.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top banks -o %t.d --target ecp5-25k --sim | FileCheck %s
// RUN: verilator --lint-only -Wall %t.d/banks.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/banks.sv; synth_ecp5 -top banks; tee -q -o %t.stat stat"
// RUN: FileCheck %s --check-prefix=YOSYS < %t.stat
// RUN: FileCheck %s --check-prefix=SV < %t.d/banks.sv

// CHECK: co-simulation (seed 1): 3712 values match
// CHECK: resources (estimate): {{.*}} 56 BRAM, 64 LUT RAM
// CHECK: note: in LUT RAM (ram_style "distributed"), as the device's 56 block RAMs do not hold 58 for the design: buf_0
// YOSYS: DP16KD 56
// YOSYS: TRELLIS_DPR16X4 64
// SV: (* ram_style = "distributed" *)
// SV-NEXT: reg [63:0] {{.*}} [0:63];
// SV-NOT: ram_style
func.func @banks(%a: memref<1856xi64> {hls.name = "a"}, %b: memref<1856xi64> {hls.name = "b"}) {
  %buf = memref.alloc() {hls.name = "buf", hls.partition = {kind = "cyclic", factor = 29}} : memref<1856xi64>
  affine.for %i = 0 to 1856 {
    %v = affine.load %a[%i] : memref<1856xi64>
    affine.store %v, %buf[%i] : memref<1856xi64>
  }
  affine.for %i = 0 to 1856 {
    %v = affine.load %buf[%i] : memref<1856xi64>
    %w = arith.addi %v, %v : i64
    affine.store %w, %b[%i] : memref<1856xi64>
  }
  return
}
