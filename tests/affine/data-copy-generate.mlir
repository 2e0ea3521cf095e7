// affine-data-copy-generate as mlir-opt-22: point-wise copies into the
// default memory space, DMA into memory space 2 with tag memrefs, and a
// capacity that makes the pass go one loop deeper.
// RUN: diff <(silica opt --affine-data-copy-generate="fast-mem-space=0" %s) <(mlir-opt-22 --affine-data-copy-generate="fast-mem-space=0" %s)
// RUN: diff <(silica opt --affine-data-copy-generate="generate-dma=1 fast-mem-space=2" %s) <(mlir-opt-22 --affine-data-copy-generate="generate-dma=1 fast-mem-space=2" %s)
// RUN: diff <(silica opt --affine-data-copy-generate="fast-mem-space=1 fast-mem-capacity=16" %s) <(mlir-opt-22 --affine-data-copy-generate="fast-mem-space=1 fast-mem-capacity=16" %s)
// RUN: silica opt --affine-data-copy-generate="generate-dma=1 fast-mem-space=2" %s | FileCheck %s

// CHECK-LABEL: func.func @copy_tile
// CHECK: memref.alloc() : memref<256x256xf32, 2>
// CHECK: affine.dma_start
// CHECK: affine.dma_wait
func.func @copy_tile(%A: memref<256x256xf32>, %B: memref<256x256xf32>) {
  affine.for %i = 0 to 256 step 32 {
    affine.for %j = 0 to 256 step 32 {
      affine.for %ii = affine_map<(d0) -> (d0)>(%i) to affine_map<(d0) -> (d0 + 32)>(%i) {
        affine.for %jj = affine_map<(d0) -> (d0)>(%j) to affine_map<(d0) -> (d0 + 32)>(%j) {
          %v = affine.load %A[%ii, %jj] : memref<256x256xf32>
          %w = arith.addf %v, %v : f32
          affine.store %w, %B[%jj, %ii] : memref<256x256xf32>
        }
      }
    }
  }
  return
}
