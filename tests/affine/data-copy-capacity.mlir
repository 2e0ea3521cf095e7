// affine-data-copy-generate with fast-mem-capacity: a loop whose
// footprint (the bounding boxes of its accesses' regions, subscripts
// composed through affine.apply) exceeds the capacity is entered and its
// body copied instead. The copy loops and the rewritten subscripts take
// the regions' outer loop variables in MLIR's order (the access's own
// operands first, then the loops their bounds use). The output is
// mlir-opt-22's.
// RUN: diff <(silica opt --split-input-file --affine-data-copy-generate="generate-dma=1 fast-mem-space=2 fast-mem-capacity=16" %s) <(mlir-opt-22 --split-input-file --affine-data-copy-generate="generate-dma=1 fast-mem-space=2 fast-mem-capacity=16" %s)
// RUN: diff <(silica opt --split-input-file --affine-data-copy-generate="fast-mem-space=0 fast-mem-capacity=1" %s) <(mlir-opt-22 --split-input-file --affine-data-copy-generate="fast-mem-space=0 fast-mem-capacity=1" %s)
// RUN: diff <(silica opt --split-input-file --affine-data-copy-generate="fast-mem-space=1 fast-mem-capacity=4" %s) <(mlir-opt-22 --split-input-file --affine-data-copy-generate="fast-mem-space=1 fast-mem-capacity=4" %s)

func.func @tiled_transpose_add(%A: memref<256x64xf32>, %B: memref<64x256xf32>) {
  affine.for %iT = 0 to 16 {
    affine.for %jT = 0 to 4 {
      affine.for %ii = 0 to 16 {
        affine.for %jj = 0 to 16 {
          %i = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1)>(%iT, %ii)
          %j = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1)>(%jT, %jj)
          %a = affine.load %A[%i, %j] : memref<256x64xf32>
          %b = affine.load %B[%j, %i] : memref<64x256xf32>
          %s = arith.addf %a, %b : f32
          affine.store %s, %A[%i, %j] : memref<256x64xf32>
        }
      }
    }
  }
  return
}

// -----

func.func @tiled_matmul(%A: memref<512x512xf32>, %B: memref<512x512xf32>, %C: memref<512x512xf32>) {
  affine.for %i = 0 to 512 step 64 {
    affine.for %j = 0 to 512 step 64 {
      affine.for %k = 0 to 512 step 64 {
        affine.for %ii = affine_map<(d0) -> (d0)>(%i) to affine_map<(d0) -> (d0 + 64)>(%i) {
          affine.for %jj = affine_map<(d0) -> (d0)>(%j) to affine_map<(d0) -> (d0 + 64)>(%j) {
            affine.for %kk = affine_map<(d0) -> (d0)>(%k) to affine_map<(d0) -> (d0 + 64)>(%k) {
              %a = affine.load %A[%ii, %kk] : memref<512x512xf32>
              %b = affine.load %B[%kk, %jj] : memref<512x512xf32>
              %c = affine.load %C[%ii, %jj] : memref<512x512xf32>
              %p = arith.mulf %a, %b : f32
              %s = arith.addf %c, %p : f32
              affine.store %s, %C[%ii, %jj] : memref<512x512xf32>
            }
          }
        }
      }
    }
  }
  return
}
