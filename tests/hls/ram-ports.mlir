// An on-chip RAM read and written in every iteration of a pipeline at
// II 1 takes two ports; the binding gives its stores the first port and
// its loads the last (flow/schedule/binding.rs), so one port only writes
// and the other only reads. On iCE40, whose block RAMs have one write
// port and one read port, it is then block RAMs, not 2,048 flip-flops
// (two ports that both write leave only flip-flops), in the estimate
// (which counts the read ports a load uses) and in the placed design.
// RUN: rm -rf %t
// RUN: silica hls %s --top acc -o %t --target ice40-up5k --sim --bitstream | FileCheck %s

// CHECK: co-simulation (seed 1): {{[0-9]+}} values match
// CHECK: acc/0/0: trip 64, pipelined, II 1
// CHECK: resources (estimate): {{[0-9]+}} LC ({{[0-9]+}} LUT4), {{[0-9]?[0-9]?[0-9]}} FF, 0 DSP, 2 BRAM
// CHECK: resources (measured by yosys and nextpnr, ice40-up5k sg48): {{[0-9]+}} LC ({{[0-9]+}} LUT4 in the netlist), {{[0-9]?[0-9]?[0-9]}} FF, 0 DSP, 2 BRAM
// CHECK: c_buf: ports = 2 (derived): honoured
func.func @acc(%a: memref<4x64xi32> {hls.name = "a"},
               %c: memref<64xi32> {hls.name = "c", hls.buffer = true}) {
  affine.for %r = 0 to 4 {
    affine.for %i = 0 to 64 {
      %x = affine.load %a[%r, %i] : memref<4x64xi32>
      %y = affine.load %c[%i] : memref<64xi32>
      %s = arith.addi %x, %y : i32
      affine.store %s, %c[%i] : memref<64xi32>
    }
  }
  return
}
