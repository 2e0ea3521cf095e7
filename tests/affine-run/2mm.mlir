// 2mm (PolyBench), i32, static sizes, dot products carried in iter_args:
// tmp = alpha * A * B (A 10x9, B 9x11), D = beta * D + tmp * C (C 11x12,
// D 10x12). The kernel's output must not change under the loop
// transformations below.
// RUN: bash %S/run.sh silica %s > %t.ref
// RUN: FileCheck %s --input-file %t.ref
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=4}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=5 cleanup-unroll=true}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=-1}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=-1 unroll-num-reps=2}' | diff %t.ref -
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
// CHECK: 2mm tmp -561
// CHECK-NEXT: 2mm D 17587

llvm.mlir.global internal constant @fmt_tmp("2mm tmp %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_d("2mm D %d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @kernel_2mm(%alpha: i32, %beta: i32, %tmp: memref<10x11xi32>, %A: memref<10x9xi32>,
                      %B: memref<9x11xi32>, %C: memref<11x12xi32>, %D: memref<10x12xi32>) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 11 {
      %zero = arith.constant 0 : i32
      %dot = affine.for %k = 0 to 9 iter_args(%acc = %zero) -> i32 {
        %a = affine.load %A[%i, %k] : memref<10x9xi32>
        %b = affine.load %B[%k, %j] : memref<9x11xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %acc, %p : i32
        affine.yield %s : i32
      }
      %t = arith.muli %alpha, %dot : i32
      affine.store %t, %tmp[%i, %j] : memref<10x11xi32>
    }
  }
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 12 {
      %d = affine.load %D[%i, %j] : memref<10x12xi32>
      %db = arith.muli %d, %beta : i32
      %sum = affine.for %k = 0 to 11 iter_args(%acc = %db) -> i32 {
        %t = affine.load %tmp[%i, %k] : memref<10x11xi32>
        %c = affine.load %C[%k, %j] : memref<11x12xi32>
        %p = arith.muli %t, %c : i32
        %s = arith.addi %acc, %p : i32
        affine.yield %s : i32
      }
      affine.store %sum, %D[%i, %j] : memref<10x12xi32>
    }
  }
  return
}

// M[i, j] = (7i + 3j + seed) mod 13 - 6
func.func @fill(%M: memref<?x?xi32>, %seed: index) {
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

// The sum of M[i, j] * ((i + 2j) mod 5 + 1).
func.func @checksum(%M: memref<?x?xi32>) -> i32 {
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

func.func @main() -> i32 {
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 2 : index
  %s3 = arith.constant 3 : index
  %s4 = arith.constant 4 : index
  %alpha = arith.constant 3 : i32
  %beta = arith.constant -2 : i32
  %tmp = memref.alloc() : memref<10x11xi32>
  %A = memref.alloc() : memref<10x9xi32>
  %B = memref.alloc() : memref<9x11xi32>
  %C = memref.alloc() : memref<11x12xi32>
  %D = memref.alloc() : memref<10x12xi32>
  %tmpd = memref.cast %tmp : memref<10x11xi32> to memref<?x?xi32>
  %Ad = memref.cast %A : memref<10x9xi32> to memref<?x?xi32>
  %Bd = memref.cast %B : memref<9x11xi32> to memref<?x?xi32>
  %Cd = memref.cast %C : memref<11x12xi32> to memref<?x?xi32>
  %Dd = memref.cast %D : memref<10x12xi32> to memref<?x?xi32>
  call @fill(%Ad, %s1) : (memref<?x?xi32>, index) -> ()
  call @fill(%Bd, %s2) : (memref<?x?xi32>, index) -> ()
  call @fill(%Cd, %s3) : (memref<?x?xi32>, index) -> ()
  call @fill(%Dd, %s4) : (memref<?x?xi32>, index) -> ()
  call @kernel_2mm(%alpha, %beta, %tmp, %A, %B, %C, %D)
      : (i32, i32, memref<10x11xi32>, memref<10x9xi32>, memref<9x11xi32>, memref<11x12xi32>, memref<10x12xi32>) -> ()
  %t = call @checksum(%tmpd) : (memref<?x?xi32>) -> i32
  %f0 = llvm.mlir.addressof @fmt_tmp : !llvm.ptr
  %r0 = llvm.call @printf(%f0, %t) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  %d = call @checksum(%Dd) : (memref<?x?xi32>) -> i32
  %f1 = llvm.mlir.addressof @fmt_d : !llvm.ptr
  %r1 = llvm.call @printf(%f1, %d) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  memref.dealloc %tmp : memref<10x11xi32>
  memref.dealloc %A : memref<10x9xi32>
  memref.dealloc %B : memref<9x11xi32>
  memref.dealloc %C : memref<11x12xi32>
  memref.dealloc %D : memref<10x12xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
