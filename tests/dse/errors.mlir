// Bad spaces: a loop or array the kernel does not have (or a DMA buffer
// without DMA), an empty list,
// a bad value, an unknown objective: one message at the key, exit 1,
// nothing written.
// RUN: rm -rf %t
// RUN: not silica dse %s --top f --space %S/spaces/no-loop.toml -o %t 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not silica dse %s --top f --space %S/spaces/empty.toml -o %t 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not silica dse %s --top f --space %S/spaces/no-array.toml -o %t 2>&1 | FileCheck %s --check-prefix=ARRAY
// RUN: not silica dse %s --top f --space %S/spaces/buffer-no-dma.toml -o %t 2>&1 | FileCheck %s --check-prefix=BUFFER
// RUN: not silica dse %s --top f --space %S/spaces/bad-value.toml -o %t 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not silica dse %s --top f --space %S/spaces/small.toml -o %t --objectives latency,area 2>&1 | FileCheck %s --check-prefix=OBJ
// RUN: not silica dse %s --top g --space %S/spaces/small.toml -o %t 2>&1 | FileCheck %s --check-prefix=TOP
// RUN: test ! -e %t

// LOOP: no-loop.toml:2:8: error: no loop of 'f' is named 'jj' (loops: f/i, f/i/j)
// EMPTY: empty.toml:3:10: error: loop:j:unroll has no choices (an empty list)
// ARRAY: no-array.toml:2:8: error: no array of 'f' is named 'D' (arrays: A, C; with dma or buffer, their copies <array>_buf)
// BUFFER: buffer-no-dma.toml:2:8: error: 'C_buf' is the DMA buffer or on-chip copy of 'C', but the space's dma lists no true, nor its buffer
// VALUE: bad-value.toml:3:19: error: loop:j:pipeline: pipeline must be false (off), true (smallest II) or a target II of at least 1, not 0
// OBJ: error: --objectives: unknown objective 'area' (latency, latency_us, lut, ff, dsp, bram)
// TOP: error: {{.*}}'g'
func.func @f(%A: memref<8x8xi32> {hls.name = "A"}, %C: memref<8x8xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j] : memref<8x8xi32>
      %s = arith.addi %a, %a : i32
      affine.store %s, %C[%i, %j] : memref<8x8xi32>
    } {hls.label = "j"}
  } {hls.label = "i"}
  return
}
