// seidel-2d (PolyBench), i32: 3 time steps of an in-place 9-point average
// (signed division by 9) over a 12x12 grid. Every loop carries
// dependences, so unroll-and-jam (which MLIR's pass applies to the first
// loop of a function without a dependence check) leaves this kernel
// alone: its first op is a constant. The kernel's output must not change
// under the loop transformations below.
// RUN: bash %S/run.sh silica %s > %t.ref
// RUN: FileCheck %s --input-file %t.ref
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=3}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=3 unroll-num-reps=3}' | diff %t.ref -
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
// CHECK: seidel-2d A 486

llvm.mlir.global internal constant @fmt("%s %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_a("seidel-2d A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @seidel_2d(%A: memref<12x12xi32>) {
  %nine = arith.constant 9 : i32
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 11 {
      affine.for %j = 1 to 11 {
        %a0 = affine.load %A[%i - 1, %j - 1] : memref<12x12xi32>
        %a1 = affine.load %A[%i - 1, %j] : memref<12x12xi32>
        %a2 = affine.load %A[%i - 1, %j + 1] : memref<12x12xi32>
        %a3 = affine.load %A[%i, %j - 1] : memref<12x12xi32>
        %a4 = affine.load %A[%i, %j] : memref<12x12xi32>
        %a5 = affine.load %A[%i, %j + 1] : memref<12x12xi32>
        %a6 = affine.load %A[%i + 1, %j - 1] : memref<12x12xi32>
        %a7 = affine.load %A[%i + 1, %j] : memref<12x12xi32>
        %a8 = affine.load %A[%i + 1, %j + 1] : memref<12x12xi32>
        %s0 = arith.addi %a0, %a1 : i32
        %s1 = arith.addi %s0, %a2 : i32
        %s2 = arith.addi %s1, %a3 : i32
        %s3 = arith.addi %s2, %a4 : i32
        %s4 = arith.addi %s3, %a5 : i32
        %s5 = arith.addi %s4, %a6 : i32
        %s6 = arith.addi %s5, %a7 : i32
        %s7 = arith.addi %s6, %a8 : i32
        %v = arith.divsi %s7, %nine : i32
        affine.store %v, %A[%i, %j] : memref<12x12xi32>
      }
    }
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
  %ten = arith.constant 10 : i32
  %A = memref.alloc() : memref<12x12xi32>
  %Ad = memref.cast %A : memref<12x12xi32> to memref<?x?xi32>
  call @fill2(%Ad, %s1) : (memref<?x?xi32>, index) -> ()
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 12 {
      %a = affine.load %A[%i, %j] : memref<12x12xi32>
      %b = arith.muli %a, %ten : i32
      affine.store %b, %A[%i, %j] : memref<12x12xi32>
    }
  }
  call @seidel_2d(%A) : (memref<12x12xi32>) -> ()
  %ca = call @checksum2(%Ad) : (memref<?x?xi32>) -> i32
  %na = llvm.mlir.addressof @name_a : !llvm.ptr
  call @print(%na, %ca) : (!llvm.ptr, i32) -> ()
  memref.dealloc %A : memref<12x12xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
