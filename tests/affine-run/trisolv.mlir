// trisolv (PolyBench), f32: solves L x = b for a lower-triangular 13x13 L
// by forward substitution; the inner loop's trip count is the outer
// induction variable (not a constant), its sum carried in iter_args.
// Unroll-and-jam leaves the outer loop alone (an inner bound depends on
// it). The kernel's output must not change under the loop transformations
// below.
// RUN: bash %S/run.sh silica %s > %t.ref
// RUN: FileCheck %s --input-file %t.ref
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=3}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=4}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=4 unroll-num-reps=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=-1}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll-jam{unroll-jam-factor=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-tile{tile-size=4}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-tile{tile-sizes=3,5,2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-tile{tile-size=7 separate}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-tile{cache-size=1}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'test-loop-permutation{permutation-map=1,0 check-validity=true}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'test-loop-permutation{permutation-map=1,0 check-validity=true},affine-loop-tile{tile-sizes=2,3}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-normalize' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-normalize{promote-single-iter=true}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-invariant-code-motion' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-scalrep' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-parallelize' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-parallelize{parallel-reductions=true max-nested=1}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll-jam{unroll-jam-factor=2},affine-scalrep' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-tile{tile-size=4},affine-loop-normalize,affine-loop-invariant-code-motion,affine-scalrep' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=2},affine-parallelize{parallel-reductions=true}' | diff %t.ref -
// CHECK: trisolv x -1.692204e-01
// CHECK-NEXT: trisolv x[12] -1.918209e-02

llvm.mlir.global internal constant @fmt("%s %.6e\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_x("trisolv x\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_last("trisolv x[12]\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @trisolv(%L: memref<13x13xf32>, %x: memref<13xf32>, %b: memref<13xf32>) {
  affine.for %i = 0 to 13 {
    %bi = affine.load %b[%i] : memref<13xf32>
    %s = affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) iter_args(%acc = %bi) -> f32 {
      %l = affine.load %L[%i, %j] : memref<13x13xf32>
      %xj = affine.load %x[%j] : memref<13xf32>
      %p = arith.mulf %l, %xj : f32
      %d = arith.subf %acc, %p : f32
      affine.yield %d : f32
    }
    %lii = affine.load %L[%i, %i] : memref<13x13xf32>
    %v = arith.divf %s, %lii : f32
    affine.store %v, %x[%i] : memref<13xf32>
  }
  return
}

// M[i, j] = ((7i + 3j + seed) mod 13 - 6) / 4
func.func @fill2(%M: memref<?x?xf32>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %quarter = arith.constant 0.25 : f32
  %n = memref.dim %M, %c0 : memref<?x?xf32>
  %m = memref.dim %M, %c1 : memref<?x?xf32>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %m {
      %k = affine.apply affine_map<(d0, d1)[s0] -> ((d0 * 7 + d1 * 3 + s0) mod 13 - 6)>(%i, %j)[%seed]
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %v = arith.mulf %kf, %quarter : f32
      affine.store %v, %M[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// V[i] = ((5i + seed) mod 11 - 5) / 2
func.func @fill1(%V: memref<?xf32>, %seed: index) {
  %c0 = arith.constant 0 : index
  %half = arith.constant 0.5 : f32
  %n = memref.dim %V, %c0 : memref<?xf32>
  affine.for %i = 0 to %n {
    %k = affine.apply affine_map<(d0)[s0] -> ((d0 * 5 + s0) mod 11 - 5)>(%i)[%seed]
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %v = arith.mulf %kf, %half : f32
    affine.store %v, %V[%i] : memref<?xf32>
  }
  return
}

// The sum of M[i, j] * ((i + 2j) mod 5 + 1).
func.func @checksum2(%M: memref<?x?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %M, %c0 : memref<?x?xf32>
  %m = memref.dim %M, %c1 : memref<?x?xf32>
  %sum = affine.for %i = 0 to %n iter_args(%acc = %zero) -> f32 {
    %row = affine.for %j = 0 to %m iter_args(%r = %acc) -> f32 {
      %x = affine.load %M[%i, %j] : memref<?x?xf32>
      %k = affine.apply affine_map<(d0, d1) -> ((d0 + d1 * 2) mod 5 + 1)>(%i, %j)
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %t = arith.mulf %x, %kf : f32
      %s = arith.addf %r, %t : f32
      affine.yield %s : f32
    }
    affine.yield %row : f32
  }
  return %sum : f32
}

// The sum of V[i] * (i mod 7 + 1).
func.func @checksum1(%V: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %V, %c0 : memref<?xf32>
  %sum = affine.for %i = 0 to %n iter_args(%acc = %zero) -> f32 {
    %x = affine.load %V[%i] : memref<?xf32>
    %k = affine.apply affine_map<(d0) -> (d0 mod 7 + 1)>(%i)
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %t = arith.mulf %x, %kf : f32
    %s = arith.addf %acc, %t : f32
    affine.yield %s : f32
  }
  return %sum : f32
}

// Prints `name value` with value as %.6f.
func.func @print(%name: !llvm.ptr, %v: f32) {
  %fmt = llvm.mlir.addressof @fmt : !llvm.ptr
  %d = arith.extf %v : f32 to f64
  %r = llvm.call @printf(%fmt, %name, %d) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, !llvm.ptr, f64) -> i32
  return
}

func.func @main() -> i32 {
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 2 : index
  %c12 = arith.constant 12 : index
  %L = memref.alloc() : memref<13x13xf32>
  %x = memref.alloc() : memref<13xf32>
  %b = memref.alloc() : memref<13xf32>
  %Ld = memref.cast %L : memref<13x13xf32> to memref<?x?xf32>
  %xd = memref.cast %x : memref<13xf32> to memref<?xf32>
  %bd = memref.cast %b : memref<13xf32> to memref<?xf32>
  call @fill2(%Ld, %s1) : (memref<?x?xf32>, index) -> ()
  call @fill1(%bd, %s2) : (memref<?xf32>, index) -> ()
  // A diagonal of 4 + i keeps the solution small.
  affine.for %i = 0 to 13 {
    %k = affine.apply affine_map<(d0) -> (d0 + 4)>(%i)
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    affine.store %kf, %L[%i, %i] : memref<13x13xf32>
  }
  call @trisolv(%L, %x, %b) : (memref<13x13xf32>, memref<13xf32>, memref<13xf32>) -> ()
  %cx = call @checksum1(%xd) : (memref<?xf32>) -> f32
  %nx = llvm.mlir.addressof @name_x : !llvm.ptr
  call @print(%nx, %cx) : (!llvm.ptr, f32) -> ()
  %last = memref.load %x[%c12] : memref<13xf32>
  %nl = llvm.mlir.addressof @name_last : !llvm.ptr
  call @print(%nl, %last) : (!llvm.ptr, f32) -> ()
  memref.dealloc %L : memref<13x13xf32>
  memref.dealloc %x : memref<13xf32>
  memref.dealloc %b : memref<13xf32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
