// The core's `done` waits for a transfer started and never waited for:
// the kernel copies A into an on-chip buffer, computes on it, starts the
// transfer of the buffer out to B and returns without an
// affine.dma_wait. The controller waits in a drain state until no
// transfer is under way, then raises `done`. Before, `done` rose the
// cycle after the start and the engine went on writing B (the
// co-simulation stopped at "B_we0 is high after done"). The system
// co-simulation of the same kernel: system-dma-unwaited.mlir.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top f -o %t.d --sim | FileCheck %s
// RUN: yosys -q -p "read_verilog -sv %t.d/f.sv; synth_ecp5 -top f"
// RUN: verilator --lint-only -Wall %t.d/f.sv
// RUN: FileCheck %s --check-prefix=JSON < %t.d/f.json

// CHECK: co-simulation (seed 1): 128 values match
// CHECK: dma: 1 engine(s), 2 dma_start, 1 dma_wait
// The drain counts as waiting: the 64 words out after the loop.
// CHECK: dma overlap (measured in silica's simulator, seed 1): {{[0-9]+}} cycles, DMA busy {{[0-9]+}}, computing {{[0-9]+}}, both 0 (0.0% of the DMA time hidden behind computation), waiting on DMA {{[1-9][0-9][0-9]+}}
// JSON: "waiting": {{[1-9][0-9][0-9]+}}

// B[i] = 3 * A[i] + 1, through an on-chip buffer; the transfer out is
// never waited for.
func.func @f(%A: memref<64xi32>, %B: memref<64xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %buf = memref.alloc() : memref<64xi32, 1>
  %tag = memref.alloc() : memref<2xi32>
  affine.dma_start %A[%c0], %buf[%c0], %tag[%c0], %c64 : memref<64xi32>, memref<64xi32, 1>, memref<2xi32>
  affine.dma_wait %tag[%c0], %c64 : memref<2xi32>
  affine.for %i = 0 to 64 {
    %a = affine.load %buf[%i] : memref<64xi32, 1>
    %c3 = arith.constant 3 : i32
    %c1 = arith.constant 1 : i32
    %p = arith.muli %a, %c3 : i32
    %s = arith.addi %p, %c1 : i32
    affine.store %s, %buf[%i] : memref<64xi32, 1>
  }
  affine.dma_start %buf[%c0], %B[%c0], %tag[1], %c64 : memref<64xi32, 1>, memref<64xi32>, memref<2xi32>
  return
}
