// Loop fusion, run: consumers reading their producer's buffer through
// `floordiv`/`mod` subscripts (a linearized read of a 2-D buffer, one
// under an outer loop of a 3-D buffer, the higher-dimensional nest fused
// into the lower-dimensional one, and a read through the quotient of a
// linearized index, whose slice bound is that quotient, and rows read by
// tiles of 16). The fused nests' private buffers are one element: a
// subscript of the outer loops alone is one value. Fused as mlir-opt-22 fuses them; the kernel's output must
// not change under any fusion mode.
// RUN: bash %S/run.sh silica %s > %t.ref
// RUN: FileCheck %s --input-file %t.ref
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion{maximal}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion{mode=producer}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion{compute-tolerance=0.0}' | diff %t.ref -
// RUN: silica opt --pass-pipeline='builtin.module(func.func(affine-loop-fusion{mode=producer}))' %s | FileCheck %s --check-prefix=FUSED
// CHECK: reshape out -2716
// CHECK-NEXT: reshape out3 -269
// CHECK-NEXT: reshape out4 -156
// CHECK-NEXT: reshape out5 4607
// FUSED-LABEL: func.func @kernel
// FUSED-NEXT: memref.alloc() : memref<1x1xi32>
// FUSED-NEXT: memref.alloc() : memref<1x1x1xf32>
// FUSED-NEXT: arith.constant 0 : index
// FUSED-NEXT: memref.alloc() : memref<1x1x1xf32>
// FUSED-NEXT: memref.alloc() : memref<1x1xf32>
// FUSED-NOT: memref.alloc()
// FUSED: affine.for %{{.*}} = 0 to 48 {
// FUSED: affine.store %{{.*}}, %{{.*}}[0, 0] : memref<1x1xf32>
// FUSED: affine.load %{{.*}}[0, 0] : memref<1x1xf32>
// FUSED: affine.for %{{.*}} = 0 to 2 {
// FUSED-NEXT: affine.for %{{.*}} = 0 to 24 {
// FUSED: affine.store %{{.*}}, %{{.*}}[0, 0, 0] : memref<1x1x1xf32>
// FUSED: affine.load %{{.*}}[0, 0, 0] : memref<1x1x1xf32>
// FUSED: affine.for %{{.*}} = 0 to 32 {
// FUSED-NEXT: affine.for %{{.*}} = 0 to 3 {
// FUSED: affine.store %{{.*}}, %{{.*}}[0, 0, 0] : memref<1x1x1xf32>
// FUSED: affine.load %{{.*}}[0, 0, 0] : memref<1x1x1xf32>
// FUSED: affine.for %{{.*}} = 0 to 2 {
// FUSED-NEXT: affine.for %{{.*}} = 0 to 8 {
// FUSED-NEXT: affine.for %{{.*}} = 0 to 16 {
// FUSED: affine.store %{{.*}}, %{{.*}}[0, 0] : memref<1x1xi32>
// FUSED-NEXT: affine.for %{{.*}} = 0 to 3 {
// FUSED: affine.load %{{.*}}[0, 0] : memref<1x1xi32>
// FUSED-NOT: affine.for
// FUSED-LABEL: func.func @fill

llvm.mlir.global internal constant @fmt_out("reshape out %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_out3("reshape out3 %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_out4("reshape out4 %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_out5("reshape out5 %d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @kernel(%A: memref<6x8xi32>, %out: memref<48x1xi32>, %out3: memref<2x24xi32>,
                  %out4: memref<32x3xi32>, %out5: memref<32x8xi32>) {
  %c3 = arith.constant 3 : i32
  %c2 = arith.constant 2 : i32
  %c3f = arith.constant 3.0 : f32
  // A 6x8 producer read as 48 consecutive elements.
  %t = memref.alloc() : memref<6x8xf32>
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j] : memref<6x8xi32>
      %m = arith.muli %a, %c3 : i32
      %k = arith.index_cast %i : index to i32
      %n = arith.addi %m, %k : i32
      %f = arith.sitofp %n : i32 to f32
      affine.store %f, %t[%i, %j] : memref<6x8xf32>
    }
  }
  affine.for %k = 0 to 48 {
    %v = affine.load %t[%k floordiv 8, %k mod 8] : memref<6x8xf32>
    %w = arith.fptosi %v : f32 to i32
    %kk = arith.index_cast %k : index to i32
    %d = arith.subi %w, %kk : i32
    affine.store %d, %out[%k, 0] : memref<48x1xi32>
  }
  // A 3-D producer (2x3x8) read as two rows of 24 under an outer loop.
  %u = memref.alloc() : memref<2x3x8xf32>
  affine.for %a = 0 to 2 {
    affine.for %i = 0 to 3 {
      affine.for %j = 0 to 8 {
        %x = affine.load %A[%a * 3 + %i, %j] : memref<6x8xi32>
        %y = arith.muli %x, %c2 : i32
        %f = arith.sitofp %y : i32 to f32
        %g = arith.subf %f, %c3f : f32
        affine.store %g, %u[%a, %i, %j] : memref<2x3x8xf32>
      }
    }
  }
  affine.for %a = 0 to 2 {
    affine.for %k = 0 to 24 {
      %v = affine.load %u[%a, %k floordiv 8, %k mod 8] : memref<2x3x8xf32>
      %w = arith.fptosi %v : f32 to i32
      affine.store %w, %out3[%a, %k] : memref<2x24xi32>
    }
  }
  // A 2x3x16 producer read back through the quotient of a linearized
  // index: the slice runs the one producer iteration (q, jj, 0) with
  // q = (3 * ii + jj) floordiv 48.
  %v = memref.alloc() : memref<2x3x16xf32>
  affine.for %a = 0 to 2 {
    affine.for %b = 0 to 3 {
      affine.for %c = 0 to 16 {
        %x = affine.load %A[%a * 3 + %b, %c mod 8] : memref<6x8xi32>
        %ci = arith.index_cast %c : index to i32
        %y = arith.addi %x, %ci : i32
        %f = arith.sitofp %y : i32 to f32
        affine.store %f, %v[%a, %b, %c] : memref<2x3x16xf32>
      }
    }
  }
  affine.for %ii = 0 to 32 {
    affine.for %jj = 0 to 3 {
      %w = affine.load %v[(%ii * 3 + %jj) floordiv 48, %jj, 0] : memref<2x3x16xf32>
      %z = arith.fptosi %w : f32 to i32
      affine.store %z, %out4[%ii, %jj] : memref<32x3xi32>
    }
  }
  // A consumer reading its producer's rows by tiles of 16: the slice at
  // the tile loop runs rows 16 * i to 16 * i + 15.
  %p = memref.alloc() : memref<32x8xi32>
  affine.for %r = 0 to 32 {
    affine.for %c = 0 to 8 {
      %x = affine.load %A[%r floordiv 6, %c] : memref<6x8xi32>
      %ri = arith.index_cast %r : index to i32
      %y = arith.muli %x, %ri : i32
      affine.store %y, %p[%r, %c] : memref<32x8xi32>
    }
  }
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 3 {
        affine.for %ii = 0 to 16 {
          %x = affine.load %p[16 * %i + %ii, %j] : memref<32x8xi32>
          %ki = arith.index_cast %k : index to i32
          %y = arith.addi %x, %ki : i32
          affine.store %y, %out5[16 * %i + %ii, %j] : memref<32x8xi32>
        }
      }
    }
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
  %A = memref.alloc() : memref<6x8xi32>
  %out = memref.alloc() : memref<48x1xi32>
  %out3 = memref.alloc() : memref<2x24xi32>
  %out4 = memref.alloc() : memref<32x3xi32>
  %out5 = memref.alloc() : memref<32x8xi32>
  %Ad = memref.cast %A : memref<6x8xi32> to memref<?x?xi32>
  %outd = memref.cast %out : memref<48x1xi32> to memref<?x?xi32>
  %out3d = memref.cast %out3 : memref<2x24xi32> to memref<?x?xi32>
  %out4d = memref.cast %out4 : memref<32x3xi32> to memref<?x?xi32>
  %out5d = memref.cast %out5 : memref<32x8xi32> to memref<?x?xi32>
  call @fill(%Ad, %s1) : (memref<?x?xi32>, index) -> ()
  call @kernel(%A, %out, %out3, %out4, %out5) : (memref<6x8xi32>, memref<48x1xi32>, memref<2x24xi32>, memref<32x3xi32>, memref<32x8xi32>) -> ()
  %g0 = llvm.mlir.addressof @fmt_out : !llvm.ptr
  call @print(%outd, %g0) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %g1 = llvm.mlir.addressof @fmt_out3 : !llvm.ptr
  call @print(%out3d, %g1) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %g2 = llvm.mlir.addressof @fmt_out4 : !llvm.ptr
  call @print(%out4d, %g2) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %g3 = llvm.mlir.addressof @fmt_out5 : !llvm.ptr
  call @print(%out5d, %g3) : (memref<?x?xi32>, !llvm.ptr) -> ()
  memref.dealloc %A : memref<6x8xi32>
  memref.dealloc %out : memref<48x1xi32>
  memref.dealloc %out3 : memref<2x24xi32>
  memref.dealloc %out4 : memref<32x3xi32>
  memref.dealloc %out5 : memref<32x8xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
