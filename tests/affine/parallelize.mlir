// affine-parallelize: loops whose iterations carry no memory dependence
// (and, with parallel-reductions, whose iteration arguments are
// reductions) become affine.parallel, outer loops first, at most
// max-nested deep. The output is mlir-opt-22's.
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-parallelize %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-parallelize %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-parallelize=max-nested=1 %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-parallelize=max-nested=1 %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-parallelize="max-nested=2 parallel-reductions=1" %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-parallelize="max-nested=2 parallel-reductions=1" %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-parallelize=parallel-reductions=true %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-parallelize=parallel-reductions=true %s)
// RUN: not silica opt --affine-parallelize=max-nested=-1 %s 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: invalid value '-1' for option 'max-nested' of pass 'affine-parallelize'

func.func @matmul(%A: memref<16x8xf32>, %B: memref<8x12xf32>, %C: memref<16x12xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 12 {
      affine.for %k = 0 to 8 {
        %a = affine.load %A[%i, %k] : memref<16x8xf32>
        %b = affine.load %B[%k, %j] : memref<8x12xf32>
        %c = affine.load %C[%i, %j] : memref<16x12xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<16x12xf32>
      }
    }
  }
  return
}

// -----

func.func @stencil(%A: memref<100xf32>, %B: memref<100xf32>) {
  affine.for %t = 0 to 10 {
    affine.for %i = 1 to 99 {
      %l = affine.load %A[%i - 1] : memref<100xf32>
      %r = affine.load %A[%i + 1] : memref<100xf32>
      %s = arith.addf %l, %r : f32
      affine.store %s, %B[%i] : memref<100xf32>
    }
    affine.for %i = 1 to 99 {
      %v = affine.load %B[%i] : memref<100xf32>
      affine.store %v, %A[%i] : memref<100xf32>
    }
  }
  affine.for %i = 1 to 99 {
    %l = affine.load %A[%i - 1] : memref<100xf32>
    affine.store %l, %A[%i] : memref<100xf32>
  }
  return
}

// -----

func.func @reductions(%A: memref<10x20xf32>, %n: index) -> (f32, i32) {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1 : i32
  %r:2 = affine.for %i = 0 to 10 iter_args(%acc = %z, %m = %one) -> (f32, i32) {
    %row = affine.for %j = 0 to min affine_map<()[s0] -> (s0, 20)>()[%n] step 2 iter_args(%racc = %z) -> f32 {
      %v = affine.load %A[%i, %j] : memref<10x20xf32>
      %s = arith.maximumf %racc, %v : f32
      affine.yield %s : f32
    }
    %t = arith.addf %acc, %row : f32
    %c = arith.muli %m, %one : i32
    affine.yield %t, %c : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}

// -----

func.func @private_and_unknown(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %t = memref.alloc() : memref<1xf32>
    %v = affine.load %A[%i] : memref<10xf32>
    affine.store %v, %t[0] : memref<1xf32>
    %w = affine.load %t[0] : memref<1xf32>
    affine.store %w, %A[%i] : memref<10xf32>
    memref.dealloc %t : memref<1xf32>
  }
  affine.for %i = 0 to 10 {
    "test.op"() : () -> ()
  }
  return
}
