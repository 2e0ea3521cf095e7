// conv2d, i32: a 3x3 convolution of a 12x13 image into a 10x11 output,
// the window sum carried in iter_args through both window loops. The
// kernel's output must not change under the loop transformations below.
// RUN: bash %S/run.sh silica %s > %t.ref
// RUN: FileCheck %s --input-file %t.ref
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=3}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=2 unroll-num-reps=3}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=4 unroll-up-to-factor=true}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=-1}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=-1 unroll-full-threshold=3}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll-jam{unroll-jam-factor=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll-jam{unroll-jam-factor=3}' | diff %t.ref -
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
// CHECK: conv2d O 312

llvm.mlir.global internal constant @fmt("%s %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_o("conv2d O\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @conv2d(%I: memref<12x13xi32>, %W: memref<3x3xi32>, %O: memref<10x11xi32>) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 11 {
      %zero = arith.constant 0 : i32
      %sum = affine.for %p = 0 to 3 iter_args(%a = %zero) -> i32 {
        %row = affine.for %q = 0 to 3 iter_args(%b = %a) -> i32 {
          %x = affine.load %I[%i + %p, %j + %q] : memref<12x13xi32>
          %w = affine.load %W[%p, %q] : memref<3x3xi32>
          %m = arith.muli %x, %w : i32
          %s = arith.addi %b, %m : i32
          affine.yield %s : i32
        }
        affine.yield %row : i32
      }
      affine.store %sum, %O[%i, %j] : memref<10x11xi32>
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
  %s2 = arith.constant 2 : index
  %I = memref.alloc() : memref<12x13xi32>
  %W = memref.alloca() : memref<3x3xi32>
  %O = memref.alloc() : memref<10x11xi32>
  %Id = memref.cast %I : memref<12x13xi32> to memref<?x?xi32>
  %Wd = memref.cast %W : memref<3x3xi32> to memref<?x?xi32>
  %Od = memref.cast %O : memref<10x11xi32> to memref<?x?xi32>
  call @fill2(%Id, %s1) : (memref<?x?xi32>, index) -> ()
  call @fill2(%Wd, %s2) : (memref<?x?xi32>, index) -> ()
  call @conv2d(%I, %W, %O) : (memref<12x13xi32>, memref<3x3xi32>, memref<10x11xi32>) -> ()
  %co = call @checksum2(%Od) : (memref<?x?xi32>) -> i32
  %no = llvm.mlir.addressof @name_o : !llvm.ptr
  call @print(%no, %co) : (!llvm.ptr, i32) -> ()
  memref.dealloc %I : memref<12x13xi32>
  memref.dealloc %O : memref<10x11xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
