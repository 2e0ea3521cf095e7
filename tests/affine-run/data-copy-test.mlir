// test-affine-data-copy, run: a tiled matrix product C += A * B (12x10
// times 10x14, tiles of 4x7x5) and a tiled 1-d stencil whose tile size
// (5) does not divide its trip count (18), both over static memrefs. Each
// mode of the test pass (a filter memref, a region copied around the
// nest, every memref within a capacity that the buffers exceed) and the
// same copies after tiling must print what the kernels print as written.
// RUN: bash %S/run.sh silica %s > %t.ref
// RUN: FileCheck %s --input-file %t.ref
// RUN: bash %S/run.sh silica %s 'test-affine-data-copy{memref-filter}' | diff %t.ref -
// for-memref-region copies only the first load's region, and every
// access of its memref in the nest is redirected to the buffer: the
// stencil's X[i + 1] then reads past the copied X[i - 1] elements, as in
// mlir-opt-22's output (tests/affine/test-affine-data-copy.mlir compares
// the IR). Only the product's line is compared there.
// RUN: bash %S/run.sh silica %s 'test-affine-data-copy{for-memref-region}' | head -1 | diff <(head -1 %t.ref) -
// RUN: bash %S/run.sh silica %s 'test-affine-data-copy' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'test-affine-data-copy{capacity-kib=64}' 2>/dev/null | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-tile{tile-size=3},test-affine-data-copy{memref-filter}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-tile{tile-size=3},test-affine-data-copy' | diff %t.ref -
// The copies are made (the kernels' buffers appear):
// RUN: silica opt --pass-pipeline='builtin.module(func.func(test-affine-data-copy{memref-filter}))' %s | FileCheck %s --check-prefix=FILTER
// FILTER-LABEL: func.func @matmul
// FILTER: memref.alloc() : memref<4x10xi32>
// FILTER-NOT: memref.alloc()
// FILTER-LABEL: func.func @stencil
// FILTER: memref.alloc() : memref<7xi32>
// FILTER-NOT: memref.alloc()
// FILTER-LABEL: func.func @fill2
// CHECK: data-copy C 27
// CHECK-NEXT: data-copy S 77

llvm.mlir.global internal constant @fmt("%s %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_c("data-copy C\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_s("data-copy S\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @matmul(%A: memref<12x10xi32>, %B: memref<10x14xi32>, %C: memref<12x14xi32>) {
  affine.for %it = 0 to 12 step 4 {
    affine.for %jt = 0 to 14 step 7 {
      affine.for %kt = 0 to 10 step 5 {
        affine.for %i = affine_map<(d0) -> (d0)>(%it) to affine_map<(d0) -> (d0 + 4)>(%it) {
          affine.for %j = affine_map<(d0) -> (d0)>(%jt) to affine_map<(d0) -> (d0 + 7)>(%jt) {
            affine.for %k = affine_map<(d0) -> (d0)>(%kt) to affine_map<(d0) -> (d0 + 5)>(%kt) {
              %a = affine.load %A[%i, %k] : memref<12x10xi32>
              %b = affine.load %B[%k, %j] : memref<10x14xi32>
              %c = affine.load %C[%i, %j] : memref<12x14xi32>
              %p = arith.muli %a, %b : i32
              %s = arith.addi %c, %p : i32
              affine.store %s, %C[%i, %j] : memref<12x14xi32>
            }
          }
        }
      }
    }
  }
  return
}

// S[i] = 2 X[i - 1] - X[i + 1] for i in [1, 19).
func.func @stencil(%X: memref<20xi32>, %S: memref<20xi32>) {
  affine.for %t = 1 to 19 step 5 {
    affine.for %i = affine_map<(d0) -> (d0)>(%t) to min affine_map<(d0) -> (d0 + 5, 19)>(%t) {
      %l = affine.load %X[%i - 1] : memref<20xi32>
      %r = affine.load %X[%i + 1] : memref<20xi32>
      %l2 = arith.addi %l, %l : i32
      %d = arith.subi %l2, %r : i32
      affine.store %d, %S[%i] : memref<20xi32>
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
  %s4 = arith.constant 4 : index
  %A = memref.alloc() : memref<12x10xi32>
  %B = memref.alloc() : memref<10x14xi32>
  %C = memref.alloc() : memref<12x14xi32>
  %X = memref.alloc() : memref<20xi32>
  %S = memref.alloc() : memref<20xi32>
  %Ad = memref.cast %A : memref<12x10xi32> to memref<?x?xi32>
  %Bd = memref.cast %B : memref<10x14xi32> to memref<?x?xi32>
  %Cd = memref.cast %C : memref<12x14xi32> to memref<?x?xi32>
  %Xd = memref.cast %X : memref<20xi32> to memref<?xi32>
  %Sd = memref.cast %S : memref<20xi32> to memref<?xi32>
  call @fill2(%Ad, %s1) : (memref<?x?xi32>, index) -> ()
  call @fill2(%Bd, %s2) : (memref<?x?xi32>, index) -> ()
  call @fill2(%Cd, %s3) : (memref<?x?xi32>, index) -> ()
  call @fill1(%Xd, %s4) : (memref<?xi32>, index) -> ()
  call @fill1(%Sd, %s1) : (memref<?xi32>, index) -> ()
  call @matmul(%A, %B, %C) : (memref<12x10xi32>, memref<10x14xi32>, memref<12x14xi32>) -> ()
  call @stencil(%X, %S) : (memref<20xi32>, memref<20xi32>) -> ()
  %cc = call @checksum2(%Cd) : (memref<?x?xi32>) -> i32
  %cs = call @checksum1(%Sd) : (memref<?xi32>) -> i32
  %nc = llvm.mlir.addressof @name_c : !llvm.ptr
  call @print(%nc, %cc) : (!llvm.ptr, i32) -> ()
  %ns = llvm.mlir.addressof @name_s : !llvm.ptr
  call @print(%ns, %cs) : (!llvm.ptr, i32) -> ()
  memref.dealloc %A : memref<12x10xi32>
  memref.dealloc %B : memref<10x14xi32>
  memref.dealloc %C : memref<12x14xi32>
  memref.dealloc %X : memref<20xi32>
  memref.dealloc %S : memref<20xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
