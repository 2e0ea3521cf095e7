// affine-scalrep: stores forwarded to the loads they must reach, stores
// overwritten before any read removed, allocations left with stores only
// removed, and repeated loads of one element reused — where the
// dependence analysis shows no access in between may touch the element.
// The output is mlir-opt-22's.
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-scalrep %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-scalrep %s)

func.func @forward_in_nest(%A: memref<10x10xf32>, %x: f32) -> f32 {
  %t = memref.alloc() : memref<10x10xf32>
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      affine.store %x, %t[%i, %j] : memref<10x10xf32>
      %v = affine.load %t[%i, %j] : memref<10x10xf32>
      %w = arith.addf %v, %x : f32
      affine.store %w, %A[%i, %j] : memref<10x10xf32>
    }
  }
  %r = affine.load %A[0, 0] : memref<10x10xf32>
  return %r : f32
}

// -----

func.func @blocked(%A: memref<10xf32>, %x: f32, %n: index) {
  affine.for %i = 0 to 10 {
    affine.store %x, %A[%i] : memref<10xf32>
    affine.store %x, %A[%n] : memref<10xf32>
    %v = affine.load %A[%i] : memref<10xf32>
    "test.use"(%v) : (f32) -> ()
  }
  affine.for %i = 0 to 9 {
    affine.store %x, %A[%i] : memref<10xf32>
    affine.store %x, %A[%i + 1] : memref<10xf32>
    %v = affine.load %A[%i] : memref<10xf32>
    "test.use"(%v) : (f32) -> ()
  }
  return
}

// -----

func.func @across_loops(%A: memref<10xf32>, %B: memref<10xf32>, %x: f32) {
  affine.store %x, %A[3] : memref<10xf32>
  affine.for %i = 0 to 10 {
    affine.store %x, %A[%i + 4] : memref<10xf32>
    %v = affine.load %A[3] : memref<10xf32>
    affine.store %v, %B[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    %u = affine.load %B[%i] : memref<10xf32>
    %w = affine.load %B[%i] : memref<10xf32>
    %s = arith.addf %u, %w : f32
    affine.store %s, %B[%i] : memref<10xf32>
    affine.store %s, %B[%i] : memref<10xf32>
  }
  return
}

// -----

func.func @dead_stores(%A: memref<10xf32>, %x: f32, %y: f32) {
  affine.for %i = 0 to 10 {
    affine.store %x, %A[%i] : memref<10xf32>
    affine.store %y, %A[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    affine.store %x, %A[%i] : memref<10xf32>
    %v = affine.load %A[%i] : memref<10xf32>
    "test.use"(%v) : (f32) -> ()
    affine.store %y, %A[%i] : memref<10xf32>
  }
  return
}

// -----

func.func @calls(%A: memref<10xf32>, %x: f32) {
  affine.for %i = 0 to 10 {
    affine.store %x, %A[%i] : memref<10xf32>
    func.call @opaque(%A) : (memref<10xf32>) -> ()
    %v = affine.load %A[%i] : memref<10xf32>
    "test.use"(%v) : (f32) -> ()
  }
  return
}
func.func private @opaque(memref<10xf32>)
