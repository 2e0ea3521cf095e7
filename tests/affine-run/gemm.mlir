// gemm (PolyBench), f32, sizes passed as index arguments so that every
// loop has a non-constant trip count: C = alpha * A * B + beta * C with
// C 13x11, A 13x9, B 9x11. The kernel's output must not change under the
// loop transformations below.
// RUN: bash %S/run.sh silica %s > %t.ref
// RUN: FileCheck %s --input-file %t.ref
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=2}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=3}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=4}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-unroll{unroll-factor=3 unroll-num-reps=2}' | diff %t.ref -
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
// CHECK: gemm -12.093750
// CHECK-NEXT: gemm C[12][10] -5.500000

llvm.mlir.global internal constant @fmt("gemm %.6f\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_elem("gemm C[12][10] %.6f\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @gemm(%ni: index, %nj: index, %nk: index, %alpha: f32, %beta: f32,
                %C: memref<?x?xf32>, %A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  affine.for %i = 0 to %ni {
    affine.for %j = 0 to %nj {
      %c = affine.load %C[%i, %j] : memref<?x?xf32>
      %cb = arith.mulf %c, %beta : f32
      affine.store %cb, %C[%i, %j] : memref<?x?xf32>
    }
    affine.for %k = 0 to %nk {
      affine.for %j = 0 to %nj {
        %a = affine.load %A[%i, %k] : memref<?x?xf32>
        %aa = arith.mulf %alpha, %a : f32
        %b = affine.load %B[%k, %j] : memref<?x?xf32>
        %p = arith.mulf %aa, %b : f32
        %c = affine.load %C[%i, %j] : memref<?x?xf32>
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}

// M[i, j] = ((7i + 3j + seed) mod 13 - 6) / 4
func.func @fill(%M: memref<?x?xf32>, %seed: index) {
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

// The sum of M[i, j] * ((i + 2j) mod 5 + 1).
func.func @checksum(%M: memref<?x?xf32>) -> f32 {
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

func.func @print(%v: f32) {
  %fmt = llvm.mlir.addressof @fmt : !llvm.ptr
  %d = arith.extf %v : f32 to f64
  %r = llvm.call @printf(%fmt, %d) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f64) -> i32
  return
}

func.func @main() -> i32 {
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 2 : index
  %s3 = arith.constant 3 : index
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant -0.5 : f32
  %C = memref.alloc(%c13, %c11) : memref<?x?xf32>
  %A = memref.alloc(%c13, %c9) : memref<?x?xf32>
  %B = memref.alloc(%c9, %c11) : memref<?x?xf32>
  call @fill(%C, %s1) : (memref<?x?xf32>, index) -> ()
  call @fill(%A, %s2) : (memref<?x?xf32>, index) -> ()
  call @fill(%B, %s3) : (memref<?x?xf32>, index) -> ()
  call @gemm(%c13, %c11, %c9, %alpha, %beta, %C, %A, %B)
      : (index, index, index, f32, f32, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %sum = call @checksum(%C) : (memref<?x?xf32>) -> f32
  call @print(%sum) : (f32) -> ()
  %e = memref.load %C[%c12, %c10] : memref<?x?xf32>
  %fmt = llvm.mlir.addressof @fmt_elem : !llvm.ptr
  %d = arith.extf %e : f32 to f64
  %r = llvm.call @printf(%fmt, %d) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f64) -> i32
  memref.dealloc %C : memref<?x?xf32>
  memref.dealloc %A : memref<?x?xf32>
  memref.dealloc %B : memref<?x?xf32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
