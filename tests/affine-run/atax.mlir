// atax (PolyBench), f32: y = A^T (A x) with A 11x13, the row products
// carried in iter_args. The kernel's output must not change under the
// loop transformations below.
// RUN: bash %S/run.sh silica %s > %t.ref
// RUN: FileCheck %s --input-file %t.ref
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=3}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=4 cleanup-unroll=true}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=-1}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll-jam{unroll-jam-factor=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll-jam{unroll-jam-factor=4}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-tile{tile-size=4}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-tile{tile-sizes=3,5,2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-tile{tile-size=7 separate}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-tile{cache-size=1}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'test-loop-permutation{permutation-map=1,0 check-validity=true}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'test-loop-permutation{permutation-map=1,0 check-validity=true},affine-loop-tile{tile-sizes=2,3}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-data-copy-generate{fast-mem-space=0}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-tile{tile-size=4},affine-data-copy-generate{fast-mem-space=0}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-normalize' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-normalize{promote-single-iter=true}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-invariant-code-motion' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-scalrep' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-parallelize' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-parallelize{parallel-reductions=true max-nested=1}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll-jam{unroll-jam-factor=2},affine-scalrep' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-tile{tile-size=4},affine-loop-normalize,affine-loop-invariant-code-motion,affine-scalrep' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=2},affine-parallelize{parallel-reductions=true}' | diff %t.ref -
// CHECK: atax tmp -70.250000
// CHECK-NEXT: atax y 105.156250

llvm.mlir.global internal constant @fmt("%s %.6f\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_tmp("atax tmp\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_y("atax y\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @atax(%A: memref<11x13xf32>, %x: memref<13xf32>, %y: memref<13xf32>, %tmp: memref<11xf32>) {
  affine.for %i = 0 to 13 {
    %zero = arith.constant 0.0 : f32
    affine.store %zero, %y[%i] : memref<13xf32>
  }
  affine.for %i = 0 to 11 {
    %zero = arith.constant 0.0 : f32
    %t = affine.for %j = 0 to 13 iter_args(%acc = %zero) -> f32 {
      %a = affine.load %A[%i, %j] : memref<11x13xf32>
      %xj = affine.load %x[%j] : memref<13xf32>
      %p = arith.mulf %a, %xj : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %t, %tmp[%i] : memref<11xf32>
    affine.for %j = 0 to 13 {
      %yj = affine.load %y[%j] : memref<13xf32>
      %a = affine.load %A[%i, %j] : memref<11x13xf32>
      %p = arith.mulf %a, %t : f32
      %s = arith.addf %yj, %p : f32
      affine.store %s, %y[%j] : memref<13xf32>
    }
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
  %A = memref.alloc() : memref<11x13xf32>
  %x = memref.alloc() : memref<13xf32>
  %y = memref.alloc() : memref<13xf32>
  %tmp = memref.alloc() : memref<11xf32>
  %Ad = memref.cast %A : memref<11x13xf32> to memref<?x?xf32>
  %xd = memref.cast %x : memref<13xf32> to memref<?xf32>
  %yd = memref.cast %y : memref<13xf32> to memref<?xf32>
  %tmpd = memref.cast %tmp : memref<11xf32> to memref<?xf32>
  call @fill2(%Ad, %s1) : (memref<?x?xf32>, index) -> ()
  call @fill1(%xd, %s2) : (memref<?xf32>, index) -> ()
  call @atax(%A, %x, %y, %tmp) : (memref<11x13xf32>, memref<13xf32>, memref<13xf32>, memref<11xf32>) -> ()
  %t = call @checksum1(%tmpd) : (memref<?xf32>) -> f32
  %n0 = llvm.mlir.addressof @name_tmp : !llvm.ptr
  call @print(%n0, %t) : (!llvm.ptr, f32) -> ()
  %c = call @checksum1(%yd) : (memref<?xf32>) -> f32
  %n1 = llvm.mlir.addressof @name_y : !llvm.ptr
  call @print(%n1, %c) : (!llvm.ptr, f32) -> ()
  memref.dealloc %A : memref<11x13xf32>
  memref.dealloc %x : memref<13xf32>
  memref.dealloc %y : memref<13xf32>
  memref.dealloc %tmp : memref<11xf32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
