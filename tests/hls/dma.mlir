// DMA and double buffering: the kernel tiled 4x8, its tiles copied into
// on-chip buffers (memory space 1) by affine.dma_start with a stride (a
// 4x8 tile of a 16x32 array: 32 words, 8 every 32), the input transfers
// double-buffered one tile ahead. The DMA engines move the next tiles
// while the pipelines compute on the current ones; the software side runs
// the transfers as plain copies. Co-simulated bit for bit, lint clean,
// accepted by yosys; the report measures the overlap in silica's
// simulator. Without --affine-pipeline-data-transfer every transfer is
// waited for before the computation that uses it: slower.
// RUN: rm -rf %t.d %t.single
// RUN: silica opt --affine-loop-tile="tile-sizes=4,8" --affine-data-copy-generate="generate-dma fast-mem-space=1 fast-mem-capacity=1" --affine-pipeline-data-transfer %s | silica hls - --top f -o %t.d --sim | FileCheck %s
// RUN: verilator --lint-only -Wall %t.d/f.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/f.sv; synth_ice40 -dsp -top f"
// RUN: FileCheck %s --check-prefix=JSON < %t.d/f.json
// RUN: silica opt --affine-loop-tile="tile-sizes=4,8" --affine-data-copy-generate="generate-dma fast-mem-space=1 fast-mem-capacity=1" %s | silica hls - --top f -o %t.single --sim | FileCheck %s --check-prefix=SINGLE

// CHECK: co-simulation (seed 1): 1536 values match, latency [[LAT:[0-9]+]] cycles
// CHECK: dma: 3 engine(s), 6 dma_start, 6 dma_wait
// CHECK: dma overlap (measured in silica's simulator, seed 1): [[LAT]] cycles, DMA busy {{[0-9]+}}, computing {{[0-9]+}}, both {{[1-9][0-9]*}} (
// JSON: "dma": {
// JSON: "engines": 3,
// JSON: "overlap": {
// JSON: "source": "measured in silica's simulator, seed 1",
// SINGLE: co-simulation (seed 1): 1536 values match
// SINGLE: dma: 3 engine(s), 3 dma_start, 3 dma_wait
// SINGLE: dma overlap (measured in silica's simulator, seed 1): {{[0-9]+}} cycles, DMA busy {{[0-9]+}}, computing {{[0-9]+}}, both 0 (0.0%
func.func @f(%A: memref<16x32xi32>, %B: memref<16x32xi32>, %C: memref<16x32xi32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 32 {
      %a = affine.load %A[%i, %j] : memref<16x32xi32>
      %b = affine.load %B[%i, %j] : memref<16x32xi32>
      %p = arith.muli %a, %b : i32
      %c = arith.addi %p, %a : i32
      affine.store %c, %C[%i, %j] : memref<16x32xi32>
    }
  }
  return
}
