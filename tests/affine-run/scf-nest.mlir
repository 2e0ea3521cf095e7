// scf-nest, i32: an scf.for nest with offsets, steps and an iteration
// argument chained through it (a weighted sum of a 12x20 grid), and an
// affine stencil band with a step whose tile sizes are arguments of its
// function (test-affine-parametric-tile tiles it by 3 and 5). The output
// must not change when the scf.for nests are coalesced or the band is
// tiled.
// RUN: bash %S/run.sh silica %s > %t.ref
// RUN: FileCheck %s --input-file %t.ref
// RUN: bash %S/run.sh silica %s 'test-affine-parametric-tile' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-coalescing' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-coalescing,cse,canonicalize' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'test-affine-parametric-tile,affine-loop-coalescing' | diff %t.ref -
// CHECK: scf-nest sum -1351
// CHECK-NEXT: scf-nest stencil -2102

llvm.mlir.global internal constant @fmt("%s %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_sum("scf-nest sum\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_stencil("scf-nest stencil\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// M[i, j] = (7i + 3j + seed) mod 23 - 11
func.func @fill(%M: memref<12x20xi32>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %c20 = arith.constant 20 : index
  scf.for %i = %c0 to %c12 step %c1 {
    scf.for %j = %c0 to %c20 step %c1 {
      %k = affine.apply affine_map<(d0, d1)[s0] -> ((d0 * 7 + d1 * 3 + s0) mod 23 - 11)>(%i, %j)[%seed]
      %v = arith.index_cast %k : index to i32
      memref.store %v, %M[%i, %j] : memref<12x20xi32>
    }
  }
  return
}

// The sum of M[i, j] * (i + 2j) over i = 1, 3, .., 9 and j = 2, 5, .., 17.
func.func @weighted_sum(%M: memref<12x20xi32>) -> i32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c11 = arith.constant 11 : index
  %c19 = arith.constant 19 : index
  %zero = arith.constant 0 : i32
  %r = scf.for %i = %c1 to %c11 step %c2 iter_args(%a = %zero) -> (i32) {
    %s = scf.for %j = %c2 to %c19 step %c3 iter_args(%b = %a) -> (i32) {
      %v = memref.load %M[%i, %j] : memref<12x20xi32>
      %w = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 2)>(%i, %j)
      %wi = arith.index_cast %w : index to i32
      %p = arith.muli %v, %wi : i32
      %t = arith.addi %b, %p : i32
      scf.yield %t : i32
    }
    scf.yield %s : i32
  }
  return %r : i32
}

// B[i, j] = 2 A[i, j] - A[i + 1, j - 1] over i < 11 and odd j.
func.func @stencil(%t0: index, %t1: index, %A: memref<12x20xi32>, %B: memref<12x20xi32>) {
  %two = arith.constant 2 : i32
  affine.for %i = 0 to 11 {
    affine.for %j = 1 to 20 step 2 {
      %a = affine.load %A[%i, %j] : memref<12x20xi32>
      %b = affine.load %A[%i + 1, %j - 1] : memref<12x20xi32>
      %d = arith.muli %a, %two : i32
      %s = arith.subi %d, %b : i32
      affine.store %s, %B[%i, %j] : memref<12x20xi32>
    }
  }
  return
}

func.func @print(%name: !llvm.ptr, %v: i32) {
  %fmt = llvm.mlir.addressof @fmt : !llvm.ptr
  %r = llvm.call @printf(%fmt, %name, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, !llvm.ptr, i32) -> i32
  return
}

func.func @main() -> i32 {
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 5 : index
  %t0 = arith.constant 3 : index
  %t1 = arith.constant 5 : index
  %A = memref.alloc() : memref<12x20xi32>
  %B = memref.alloc() : memref<12x20xi32>
  call @fill(%A, %s1) : (memref<12x20xi32>, index) -> ()
  call @fill(%B, %s2) : (memref<12x20xi32>, index) -> ()
  %sa = call @weighted_sum(%A) : (memref<12x20xi32>) -> i32
  %na = llvm.mlir.addressof @name_sum : !llvm.ptr
  call @print(%na, %sa) : (!llvm.ptr, i32) -> ()
  call @stencil(%t0, %t1, %A, %B) : (index, index, memref<12x20xi32>, memref<12x20xi32>) -> ()
  %sb = call @weighted_sum(%B) : (memref<12x20xi32>) -> i32
  %nb = llvm.mlir.addressof @name_stencil : !llvm.ptr
  call @print(%nb, %sb) : (!llvm.ptr, i32) -> ()
  memref.dealloc %A : memref<12x20xi32>
  memref.dealloc %B : memref<12x20xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
