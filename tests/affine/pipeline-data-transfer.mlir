// affine-pipeline-data-transfer: a DMA into a faster memory space and its
// wait are double buffered and the loop skewed so that the next transfer
// overlaps the current computation; the output is mlir-opt-22's.
// RUN: diff <(silica opt --affine-pipeline-data-transfer %s) <(mlir-opt-22 --affine-pipeline-data-transfer %s)
func.func @tiles(%src: memref<64x16xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %n = arith.constant 16 : index
  %buf = memref.alloc() : memref<16xf32, 1>
  %tag = memref.alloc() : memref<1xi32>
  affine.for %t = 0 to 64 step 2 {
    affine.dma_start %src[%t, %c0], %buf[%c0], %tag[%c0], %n : memref<64x16xf32>, memref<16xf32, 1>, memref<1xi32>
    affine.dma_wait %tag[%c0], %n : memref<1xi32>
    %v = affine.load %buf[3] : memref<16xf32, 1>
    affine.store %v, %out[%t] : memref<64xf32>
  }
  memref.dealloc %tag : memref<1xi32>
  memref.dealloc %buf : memref<16xf32, 1>
  return
}
