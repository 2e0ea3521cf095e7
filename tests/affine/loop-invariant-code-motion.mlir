// affine-loop-invariant-code-motion: ops that do not depend on a loop move
// out of it, innermost loops first; loads and stores stay when another op
// in the loop writes (or, for a store, reads) the same memref. The output
// is mlir-opt-22's.
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-loop-invariant-code-motion %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-loop-invariant-code-motion %s)

func.func @nest(%A: memref<10x10xf32>, %B: memref<10xf32>, %x: f32) {
  %c1 = arith.constant 1.0 : f32
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      %s = arith.addf %x, %c1 : f32
      %b = affine.load %B[3] : memref<10xf32>
      %t = arith.mulf %s, %b : f32
      %a = affine.load %A[%i, %j] : memref<10x10xf32>
      %u = arith.addf %a, %t : f32
      affine.store %u, %A[%i, %j] : memref<10x10xf32>
    }
  }
  return
}

// -----

func.func @conflicts(%A: memref<10xf32>, %B: memref<10xf32>, %x: f32, %n: index) {
  affine.for %i = 0 to 10 {
    %a = affine.load %A[0] : memref<10xf32>
    affine.store %a, %A[%i] : memref<10xf32>
    affine.store %x, %B[5] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    affine.if affine_set<(d0) : (d0 - 5 >= 0)>(%i) {
      affine.store %x, %B[1] : memref<10xf32>
    }
    affine.if affine_set<()[s0] : (s0 - 5 >= 0)>()[%n] {
      %c = arith.constant 2.0 : f32
    }
  }
  return
}

// -----

func.func @iter_args(%A: memref<10xf32>, %n: index) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 10 iter_args(%acc = %z) -> f32 {
    %c = arith.constant 2.0 : f32
    %d = arith.mulf %acc, %c : f32
    %v = affine.load %A[%n] : memref<10xf32>
    %s = arith.addf %d, %v : f32
    affine.yield %s : f32
  }
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      %v = affine.load %A[%j] : memref<10xf32>
      "test.use"(%v) : (f32) -> ()
    }
  }
  return %r : f32
}


// -----

func.func @triangular(%A: memref<30x20xi32>, %C: memref<30x30xi32>, %a: i32) {
  affine.for %i = 0 to 30 {
    affine.for %k = 0 to 20 {
      affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
        %c = affine.load %C[%i, %j] : memref<30x30xi32>
        %x = affine.load %A[%i, %k] : memref<30x20xi32>
        %y = arith.muli %a, %x : i32
        %s = arith.addi %c, %y : i32
        affine.store %s, %C[%i, %j] : memref<30x30xi32>
      }
    }
  }
  return
}
