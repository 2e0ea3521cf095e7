// A design whose on-chip memories need more BRAMs than the device holds
// (the estimate counts them exactly, and fitting cannot lower them): a
// warning naming the need and the capacity; --bitstream refuses it before
// running the tools (exit 1, the reports written, no bitstream).
// RUN: rm -rf %t.est %t.bit
// RUN: silica hls %s --top big -o %t.est 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: not silica hls %s --top big -o %t.bit --bitstream 2>&1 | FileCheck %s --check-prefix=BIT
// RUN: test ! -e %t.bit/big.bit

// WARN: device-limits.mlir:[[@LINE+6]]:1: warning: the design's on-chip memories need 256 BRAM, and ecp5-25k holds 56 (the estimate counts BRAMs exactly): --bitstream refuses it
// WARN: resources (estimate): {{.*}} 256 BRAM
// BIT: the design does not fit ecp5-25k: its on-chip memories need 256 BRAM of 56 (457%)
// BIT: bitstream: none (the design does not fit)
// A 128x1024 buffer written and read back at other addresses: 256 blocks
// of 512 words of 36 bits.
func.func @big(%a: memref<64xi32>, %b: memref<64xi32>) {
  %buf = memref.alloc() : memref<128x1024xi32>
  affine.for %i = 0 to 64 {
    %v = affine.load %a[%i] : memref<64xi32>
    affine.store %v, %buf[%i, 2 * %i] : memref<128x1024xi32>
  }
  affine.for %i = 0 to 64 {
    %w = affine.load %buf[63 - %i, 126 - 2 * %i] : memref<128x1024xi32>
    affine.store %w, %b[%i] : memref<64xi32>
  }
  return
}
