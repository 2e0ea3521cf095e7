// convert-affine-for-to-gpu: each top-level affine.for with enough loops
// in its perfect nest becomes a gpu.launch, block ids for the first
// gpu-block-dims loops and thread ids for the next gpu-thread-dims, each
// induction variable lb + id * step, the bounds computed before the
// launch. The output is mlir-opt-22's.
// RUN: diff <(silica opt --split-input-file --pass-pipeline="builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=1 gpu-thread-dims=1}))" %s) <(mlir-opt-22 --split-input-file --pass-pipeline="builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=1 gpu-thread-dims=1}))" %s)
// RUN: diff <(silica opt --split-input-file --pass-pipeline="builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=2 gpu-thread-dims=1}))" %s) <(mlir-opt-22 --split-input-file --pass-pipeline="builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=2 gpu-thread-dims=1}))" %s)
// RUN: diff <(silica opt --split-input-file --pass-pipeline="builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=0 gpu-thread-dims=2}))" %s) <(mlir-opt-22 --split-input-file --pass-pipeline="builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=0 gpu-thread-dims=2}))" %s)
// A nest too shallow for the dimensions asked:
// RUN: not silica opt --pass-pipeline="builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=2 gpu-thread-dims=2}))" %s 2>&1 | FileCheck %s
// CHECK: error: expected perfectly nested loops in the body

func.func @gemm(%A: memref<16x8xi32>, %B: memref<8x12xi32>, %C: memref<16x12xi32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 12 {
      affine.for %k = 0 to 8 {
        %a = affine.load %A[%i, %k] : memref<16x8xi32>
        %b = affine.load %B[%k, %j] : memref<8x12xi32>
        %c = affine.load %C[%i, %j] : memref<16x12xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<16x12xi32>
      }
    }
  }
  return
}

// -----

func.func @steps(%x: memref<100x100xf32>, %n: index) {
  affine.for %i = 2 to 98 step 3 {
    affine.for %j = max affine_map<(d0) -> (d0, 1)>(%n) to 90 step 2 {
      affine.for %k = 0 to 4 {
        %v = affine.load %x[%i, %j + %k] : memref<100x100xf32>
        affine.store %v, %x[%j, %i] : memref<100x100xf32>
      }
    }
  }
  return
}
