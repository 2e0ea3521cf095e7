// mvt (PolyBench), f32: x1 = x1 + A y1 and x2 = x2 + A^T y2 with A
// 13x13. The kernel's output must not change under the loop
// transformations below.
// RUN: bash %S/run.sh silica %s > %t.ref
// RUN: FileCheck %s --input-file %t.ref
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=5}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=2 unroll-num-reps=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=-1}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll-jam{unroll-jam-factor=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll-jam{unroll-jam-factor=3}' | diff %t.ref -
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
// CHECK: mvt x1 0.500000
// CHECK-NEXT: mvt x2 -47.625000

llvm.mlir.global internal constant @fmt("%s %.6f\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_x1("mvt x1\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_x2("mvt x2\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @mvt(%A: memref<13x13xf32>, %x1: memref<13xf32>, %x2: memref<13xf32>,
               %y1: memref<13xf32>, %y2: memref<13xf32>) {
  affine.for %i = 0 to 13 {
    affine.for %j = 0 to 13 {
      %x = affine.load %x1[%i] : memref<13xf32>
      %a = affine.load %A[%i, %j] : memref<13x13xf32>
      %y = affine.load %y1[%j] : memref<13xf32>
      %p = arith.mulf %a, %y : f32
      %s = arith.addf %x, %p : f32
      affine.store %s, %x1[%i] : memref<13xf32>
    }
  }
  affine.for %i = 0 to 13 {
    affine.for %j = 0 to 13 {
      %x = affine.load %x2[%i] : memref<13xf32>
      %a = affine.load %A[%j, %i] : memref<13x13xf32>
      %y = affine.load %y2[%j] : memref<13xf32>
      %p = arith.mulf %a, %y : f32
      %s = arith.addf %x, %p : f32
      affine.store %s, %x2[%i] : memref<13xf32>
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
  %s3 = arith.constant 3 : index
  %s4 = arith.constant 4 : index
  %s5 = arith.constant 5 : index
  %A = memref.alloc() : memref<13x13xf32>
  %x1 = memref.alloc() : memref<13xf32>
  %x2 = memref.alloc() : memref<13xf32>
  %y1 = memref.alloc() : memref<13xf32>
  %y2 = memref.alloc() : memref<13xf32>
  %Ad = memref.cast %A : memref<13x13xf32> to memref<?x?xf32>
  %x1d = memref.cast %x1 : memref<13xf32> to memref<?xf32>
  %x2d = memref.cast %x2 : memref<13xf32> to memref<?xf32>
  %y1d = memref.cast %y1 : memref<13xf32> to memref<?xf32>
  %y2d = memref.cast %y2 : memref<13xf32> to memref<?xf32>
  call @fill2(%Ad, %s1) : (memref<?x?xf32>, index) -> ()
  call @fill1(%x1d, %s2) : (memref<?xf32>, index) -> ()
  call @fill1(%x2d, %s3) : (memref<?xf32>, index) -> ()
  call @fill1(%y1d, %s4) : (memref<?xf32>, index) -> ()
  call @fill1(%y2d, %s5) : (memref<?xf32>, index) -> ()
  call @mvt(%A, %x1, %x2, %y1, %y2) : (memref<13x13xf32>, memref<13xf32>, memref<13xf32>, memref<13xf32>, memref<13xf32>) -> ()
  %c1 = call @checksum1(%x1d) : (memref<?xf32>) -> f32
  %n1 = llvm.mlir.addressof @name_x1 : !llvm.ptr
  call @print(%n1, %c1) : (!llvm.ptr, f32) -> ()
  %c2 = call @checksum1(%x2d) : (memref<?xf32>) -> f32
  %n2 = llvm.mlir.addressof @name_x2 : !llvm.ptr
  call @print(%n2, %c2) : (!llvm.ptr, f32) -> ()
  memref.dealloc %A : memref<13x13xf32>
  memref.dealloc %x1 : memref<13xf32>
  memref.dealloc %x2 : memref<13xf32>
  memref.dealloc %y1 : memref<13xf32>
  memref.dealloc %y2 : memref<13xf32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
