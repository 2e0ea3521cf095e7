// Loop fusion, run: a producer writing two escaping memrefs and reading
// one of them back without using the value (what fusing it with a
// sibling reader leaves). Recomputing its slice writes the same values,
// so it is fused into the consumer of the other memref (a private
// one-element copy) and kept for the memrefs' other readers, as
// mlir-opt-22 does. The kernel's output must not change under any
// fusion mode.
// RUN: bash %S/run.sh silica %s > %t.ref
// RUN: FileCheck %s --input-file %t.ref
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion{maximal}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion{mode=producer}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion{compute-tolerance=0.0}' | diff %t.ref -
// RUN: silica opt --pass-pipeline='builtin.module(func.func(affine-loop-fusion))' %s | FileCheck %s --check-prefix=FUSED
// CHECK: dead-load a 50
// CHECK-NEXT: dead-load b 180
// CHECK-NEXT: dead-load c -2
// FUSED-LABEL: func.func @kernel
// FUSED-NEXT: memref.alloc() : memref<1x1xi32>
// FUSED: affine.for %{{.*}} = 0 to 10 {
// FUSED: affine.for %{{.*}} = 0 to 5 {
// FUSED: affine.store %{{.*}}, %{{.*}}[0, 0] : memref<1x1xi32>
// FUSED: affine.load %{{.*}}[0, 0] : memref<1x1xi32>
// FUSED-LABEL: func.func @fill

llvm.mlir.global internal constant @fmt_a("dead-load a %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_b("dead-load b %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_c("dead-load c %d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @kernel(%A: memref<10x1xi32>, %a: memref<10x1xi32>, %b: memref<10x1xi32>,
                  %c: memref<5x1xi32>) {
  %c2 = arith.constant 2 : i32
  affine.for %i = 0 to 10 {
    %x = affine.load %A[%i, 0] : memref<10x1xi32>
    %y = arith.muli %x, %c2 : i32
    affine.store %y, %a[%i, 0] : memref<10x1xi32>
    %ii = arith.index_cast %i : index to i32
    %z = arith.addi %x, %ii : i32
    affine.store %z, %b[%i, 0] : memref<10x1xi32>
  }
  affine.for %i = 0 to 5 {
    %v = affine.load %a[%i, 0] : memref<10x1xi32>
    %w = arith.addi %v, %c2 : i32
    affine.store %w, %c[%i, 0] : memref<5x1xi32>
  }
  affine.for %i = 0 to 10 {
    %v = affine.load %b[%i, 0] : memref<10x1xi32>
  }
  return
}

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

func.func @print(%M: memref<?x?xi32>, %fmt: !llvm.ptr) {
  %v = call @checksum(%M) : (memref<?x?xi32>) -> i32
  %r = llvm.call @printf(%fmt, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  return
}

func.func @main() -> i32 {
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 2 : index
  %A = memref.alloc() : memref<10x1xi32>
  %a = memref.alloc() : memref<10x1xi32>
  %b = memref.alloc() : memref<10x1xi32>
  %c = memref.alloc() : memref<5x1xi32>
  %Ad = memref.cast %A : memref<10x1xi32> to memref<?x?xi32>
  %ad = memref.cast %a : memref<10x1xi32> to memref<?x?xi32>
  %bd = memref.cast %b : memref<10x1xi32> to memref<?x?xi32>
  %cd = memref.cast %c : memref<5x1xi32> to memref<?x?xi32>
  call @fill(%Ad, %s1) : (memref<?x?xi32>, index) -> ()
  call @fill(%cd, %s2) : (memref<?x?xi32>, index) -> ()
  call @kernel(%A, %a, %b, %c) : (memref<10x1xi32>, memref<10x1xi32>, memref<10x1xi32>, memref<5x1xi32>) -> ()
  %g0 = llvm.mlir.addressof @fmt_a : !llvm.ptr
  call @print(%ad, %g0) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %g1 = llvm.mlir.addressof @fmt_b : !llvm.ptr
  call @print(%bd, %g1) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %g2 = llvm.mlir.addressof @fmt_c : !llvm.ptr
  call @print(%cd, %g2) : (memref<?x?xi32>, !llvm.ptr) -> ()
  memref.dealloc %A : memref<10x1xi32>
  memref.dealloc %a : memref<10x1xi32>
  memref.dealloc %b : memref<10x1xi32>
  memref.dealloc %c : memref<5x1xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
