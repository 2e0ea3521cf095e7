// bicg (PolyBench), i32: s = A^T r and q = A p with A 13x11, q's row
// products carried in iter_args alongside the updates of s. The kernel's
// output must not change under the loop transformations below.
// RUN: bash %S/run.sh silica %s > %t.ref
// RUN: FileCheck %s --input-file %t.ref
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=4}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=4 cleanup-unroll=true}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=-1}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=-1 unroll-full-threshold=11}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll-jam{unroll-jam-factor=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll-jam{unroll-jam-factor=5}' | diff %t.ref -
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
// CHECK: bicg s 724
// CHECK-NEXT: bicg q 7

llvm.mlir.global internal constant @fmt("%s %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_s("bicg s\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_q("bicg q\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @bicg(%A: memref<13x11xi32>, %s: memref<11xi32>, %q: memref<13xi32>,
                %p: memref<11xi32>, %r: memref<13xi32>) {
  affine.for %j = 0 to 11 {
    %zero = arith.constant 0 : i32
    affine.store %zero, %s[%j] : memref<11xi32>
  }
  affine.for %i = 0 to 13 {
    %zero = arith.constant 0 : i32
    %ri = affine.load %r[%i] : memref<13xi32>
    %qi = affine.for %j = 0 to 11 iter_args(%acc = %zero) -> i32 {
      %a = affine.load %A[%i, %j] : memref<13x11xi32>
      %sj = affine.load %s[%j] : memref<11xi32>
      %ra = arith.muli %ri, %a : i32
      %sn = arith.addi %sj, %ra : i32
      affine.store %sn, %s[%j] : memref<11xi32>
      %pj = affine.load %p[%j] : memref<11xi32>
      %ap = arith.muli %a, %pj : i32
      %n = arith.addi %acc, %ap : i32
      affine.yield %n : i32
    }
    affine.store %qi, %q[%i] : memref<13xi32>
  }
  return
}

// M[i, j] = (7i + 3j + seed) mod 13 - 6
func.func @fill2(%M: memref<?x?xi32>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %M, %c0 : memref<?x?xi32>
  %m = memref.dim %M, %c1 : memref<?x?xi32>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %m {
      %k = affine.apply affine_map<(d0, d1)[s0] -> ((d0 * 7 + d1 * 3 + s0) mod 13 - 6)>(%i, %j)[%seed]
      %v = arith.index_cast %k : index to i32
      affine.store %v, %M[%i, %j] : memref<?x?xi32>
    }
  }
  return
}

// V[i] = (5i + seed) mod 11 - 5
func.func @fill1(%V: memref<?xi32>, %seed: index) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %V, %c0 : memref<?xi32>
  affine.for %i = 0 to %n {
    %k = affine.apply affine_map<(d0)[s0] -> ((d0 * 5 + s0) mod 11 - 5)>(%i)[%seed]
    %v = arith.index_cast %k : index to i32
    affine.store %v, %V[%i] : memref<?xi32>
  }
  return
}

// The sum of M[i, j] * ((i + 2j) mod 5 + 1).
func.func @checksum2(%M: memref<?x?xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %n = memref.dim %M, %c0 : memref<?x?xi32>
  %m = memref.dim %M, %c1 : memref<?x?xi32>
  %sum = affine.for %i = 0 to %n iter_args(%acc = %zero) -> i32 {
    %row = affine.for %j = 0 to %m iter_args(%r = %acc) -> i32 {
      %x = affine.load %M[%i, %j] : memref<?x?xi32>
      %k = affine.apply affine_map<(d0, d1) -> ((d0 + d1 * 2) mod 5 + 1)>(%i, %j)
      %w = arith.index_cast %k : index to i32
      %t = arith.muli %x, %w : i32
      %s = arith.addi %r, %t : i32
      affine.yield %s : i32
    }
    affine.yield %row : i32
  }
  return %sum : i32
}

// The sum of V[i] * (i mod 7 + 1).
func.func @checksum1(%V: memref<?xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %n = memref.dim %V, %c0 : memref<?xi32>
  %sum = affine.for %i = 0 to %n iter_args(%acc = %zero) -> i32 {
    %x = affine.load %V[%i] : memref<?xi32>
    %k = affine.apply affine_map<(d0) -> (d0 mod 7 + 1)>(%i)
    %w = arith.index_cast %k : index to i32
    %t = arith.muli %x, %w : i32
    %s = arith.addi %acc, %t : i32
    affine.yield %s : i32
  }
  return %sum : i32
}

// Prints `name value` with value as %d.
func.func @print(%name: !llvm.ptr, %v: i32) {
  %fmt = llvm.mlir.addressof @fmt : !llvm.ptr
  %r = llvm.call @printf(%fmt, %name, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, !llvm.ptr, i32) -> i32
  return
}

func.func @main() -> i32 {
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 2 : index
  %s3 = arith.constant 3 : index
  %A = memref.alloc() : memref<13x11xi32>
  %s = memref.alloc() : memref<11xi32>
  %q = memref.alloc() : memref<13xi32>
  %p = memref.alloc() : memref<11xi32>
  %r = memref.alloc() : memref<13xi32>
  %Ad = memref.cast %A : memref<13x11xi32> to memref<?x?xi32>
  %sd = memref.cast %s : memref<11xi32> to memref<?xi32>
  %qd = memref.cast %q : memref<13xi32> to memref<?xi32>
  %pd = memref.cast %p : memref<11xi32> to memref<?xi32>
  %rd = memref.cast %r : memref<13xi32> to memref<?xi32>
  call @fill2(%Ad, %s1) : (memref<?x?xi32>, index) -> ()
  call @fill1(%pd, %s2) : (memref<?xi32>, index) -> ()
  call @fill1(%rd, %s3) : (memref<?xi32>, index) -> ()
  call @bicg(%A, %s, %q, %p, %r) : (memref<13x11xi32>, memref<11xi32>, memref<13xi32>, memref<11xi32>, memref<13xi32>) -> ()
  %cs = call @checksum1(%sd) : (memref<?xi32>) -> i32
  %n0 = llvm.mlir.addressof @name_s : !llvm.ptr
  call @print(%n0, %cs) : (!llvm.ptr, i32) -> ()
  %cq = call @checksum1(%qd) : (memref<?xi32>) -> i32
  %n1 = llvm.mlir.addressof @name_q : !llvm.ptr
  call @print(%n1, %cq) : (!llvm.ptr, i32) -> ()
  memref.dealloc %A : memref<13x11xi32>
  memref.dealloc %s : memref<11xi32>
  memref.dealloc %q : memref<13xi32>
  memref.dealloc %p : memref<11xi32>
  memref.dealloc %r : memref<13xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
