// An external memory shared by the controller and a DMA engine: while
// the engine copies A into an on-chip buffer, a pipeline reads A at every
// cycle (the schedule has the port; the engine waits for the cycles it
// leaves), and a transfer out of the buffer into B runs while a second
// pipeline reads and writes B's other half. Co-simulated bit for bit,
// lint clean, accepted by yosys. A, buf and B form one group: one engine.
// The static DMA model does not time an engine waiting for the
// controller's accesses (it would give 103 cycles): the report has the
// co-simulated cycles only.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top shared -o %t.d --sim | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.d/report.txt
// RUN: verilator --lint-only -Wall %t.d/shared.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/shared.sv; synth_ice40 -dsp -top shared"
// CHECK: co-simulation (seed 1): 97 values match
// CHECK: dma: 1 engine(s), 2 dma_start, 2 dma_wait; on-chip buffers: buf
// REPORT: latency: 167 cycles ({{.*}}), measured by co-simulation{{$}}
func.func @shared(%A: memref<32xi32>, %B: memref<64xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i32
  %buf = memref.alloc() {hls.name = "buf"} : memref<32xi32, 1>
  %tags = memref.alloc() : memref<2xi32>
  affine.dma_start %A[%c0], %buf[%c0], %tags[0], %c32 : memref<32xi32>, memref<32xi32, 1>, memref<2xi32>
  %sum = affine.for %i = 0 to 32 iter_args(%acc = %z) -> (i32) {
    %a = affine.load %A[%i] : memref<32xi32>
    %n = arith.addi %acc, %a : i32
    affine.yield %n : i32
  }
  affine.dma_wait %tags[0], %c32 : memref<2xi32>
  affine.dma_start %buf[%c0], %B[%c32], %tags[1], %c32 : memref<32xi32, 1>, memref<64xi32>, memref<2xi32>
  affine.for %i = 0 to 32 {
    %b = affine.load %B[%i] : memref<64xi32>
    %d = arith.addi %b, %sum : i32
    affine.store %d, %B[%i] : memref<64xi32>
  }
  affine.dma_wait %tags[1], %c32 : memref<2xi32>
  memref.dealloc %tags : memref<2xi32>
  memref.dealloc %buf : memref<32xi32, 1>
  return %sum : i32
}
