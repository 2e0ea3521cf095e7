// A loop jammed by 30 over the columns of an on-chip copy read and
// written in its body asks for a bank a column, two ports each: the
// device's block RAMs do not hold them (the multipliers the device
// holds leave the copies four cycles apart anyway), so the flow makes
// half as many banks (15, a divisor of the jam: each access's bank
// stays fixed) and says so. Co-simulated bit for bit.
// RUN: rm -rf %t
// RUN: silica hls %s --top trmm --target ecp5-25k -o %t --sim | FileCheck %s
// RUN: verilator --lint-only -Wall %t/trmm.sv
// RUN: yosys -q -p "read_verilog -sv %t/trmm.sv; synth_ecp5 -top trmm"
// CHECK: co-simulation (seed 1): {{[0-9]+}} values match, latency 1303 cycles
// CHECK: note: block RAM: fewer banks for the unrolled accesses (B_buf: partition cyclic dim 2 factor 15, not partition complete dim 2), as the device's 56 block RAMs do not hold the 62 the design needs with the banks derived
// CHECK: B_buf: partition cyclic dim 2 factor 15 (derived): honoured: 15 banks of 20x2
func.func @trmm(%alpha: i32 {hls.name = "alpha"},
    %A: memref<20x20xi32> {hls.name = "A", hls.buffer = true, hls.width = 2},
    %B: memref<20x30xi32> {hls.name = "B", hls.buffer = true, hls.width = 2})
    attributes {hls.dataflow = true} {
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 30 {
      affine.for %k = affine_map<(d0) -> (d0 + 1)>(%i) to 20 {
        %b = affine.load %B[%i, %j] : memref<20x30xi32>
        %a = affine.load %A[%k, %i] : memref<20x20xi32>
        %c = affine.load %B[%k, %j] : memref<20x30xi32>
        %m = arith.muli %a, %c : i32
        %s = arith.addi %b, %m : i32
        affine.store %s, %B[%i, %j] : memref<20x30xi32>
      }
      %v = affine.load %B[%i, %j] : memref<20x30xi32>
      %w = arith.muli %alpha, %v : i32
      affine.store %w, %B[%i, %j] : memref<20x30xi32>
    } {hls.jam = 30}
  }
  return
}
