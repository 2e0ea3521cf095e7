// Loop fusion, run: a producer read by a stencil at shifted subscripts, a
// row reduction (initialized by its own nest) and its pointwise
// consumer, two siblings reading one column, a consumer that overwrites
// what its producer reads one element ahead (a recomputed slice would
// read the new value), a producer updating its input in place that stays
// (a slice would update it twice), and sibling reductions carried in
// `iter_args` (never sliced). mlir-opt-22 fuses the in-place producer by
// default and the overwriting consumer with `maximal`, and changes what
// both compute; silica keeps them apart. @inner has the same kinds of
// pairs inside an affine.for body: a producer into a local buffer read at
// shifted subscripts, a producer of a function argument, an in-place
// producer and a consumer overwriting what its producer reads (which
// mlir-opt-22 fuses with `maximal`, changing Y); then two siblings over
// different ranges (a sibling is fused only by a slice running all of
// its iterations, as it is removed), and a consumer whose two reads give
// slices united into a constant range.
// The kernel's output must not change under any fusion mode.
// RUN: bash %S/run.sh silica %s > %t.ref
// RUN: FileCheck %s --input-file %t.ref
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion{maximal}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion{mode=producer}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion{mode=sibling}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion{maximal mode=sibling}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion{compute-tolerance=0.0}' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion{maximal mode=producer},affine-scalrep' | diff %t.ref -
// RUN: bash %S/run.sh silica %s 'affine-loop-fusion{fast-mem-space=1 local-buf-threshold=1}' | diff %t.ref -
// CHECK: fusion out 9016
// CHECK-NEXT: fusion row 8
// CHECK-NEXT: fusion B 72
// CHECK-NEXT: fusion C 130
// CHECK-NEXT: fusion X 1
// CHECK-NEXT: fusion P 108
// CHECK-NEXT: fusion R1 -33
// CHECK-NEXT: fusion R2 263586
// CHECK-NEXT: fusion inner D 2810
// CHECK-NEXT: fusion inner F 1720
// CHECK-NEXT: fusion inner E 164
// CHECK-NEXT: fusion inner G 186
// CHECK-NEXT: fusion inner H 819
// CHECK-NEXT: fusion inner Y 237
// CHECK-NEXT: fusion sibling S1 36
// CHECK-NEXT: fusion sibling S2 37
// CHECK-NEXT: fusion union U -185

llvm.mlir.global internal constant @fmt_out("fusion out %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_row("fusion row %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_b("fusion B %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_c("fusion C %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_x("fusion X %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_p("fusion P %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_r1("fusion R1 %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_r2("fusion R2 %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_id("fusion inner D %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_if("fusion inner F %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_ie("fusion inner E %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_ig("fusion inner G %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_ih("fusion inner H %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_iy("fusion inner Y %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_s1("fusion sibling S1 %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_s2("fusion sibling S2 %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_u("fusion union U %d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @kernel(%A: memref<16x16xi32>, %out: memref<16x16xi32>, %row: memref<16x1xi32>,
                  %B: memref<16x1xi32>, %C: memref<16x1xi32>, %X: memref<17x1xi32>,
                  %P: memref<16x1xi32>, %Q: memref<16x1xi32>, %C2: memref<16x1xi32>,
                  %R1: memref<16x1xi32>, %R2: memref<16x1xi32>) {
  %c3 = arith.constant 3 : i32
  %c2 = arith.constant 2 : i32
  %c5 = arith.constant 5 : i32
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  // A producer and a stencil consuming it at shifted subscripts.
  %t = memref.alloc() : memref<16x16xi32>
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<16x16xi32>
      %m = arith.muli %a, %c3 : i32
      %k = arith.index_cast %i : index to i32
      %n = arith.addi %m, %k : i32
      affine.store %n, %t[%i, %j] : memref<16x16xi32>
    }
  }
  affine.for %i = 0 to 15 {
    affine.for %j = 1 to 15 {
      %x = affine.load %t[%i, %j] : memref<16x16xi32>
      %y = affine.load %t[%i + 1, %j - 1] : memref<16x16xi32>
      %z = affine.load %t[%i, %j + 1] : memref<16x16xi32>
      %y2 = arith.muli %y, %c2 : i32
      %s0 = arith.addi %x, %y2 : i32
      %s1 = arith.subi %s0, %z : i32
      affine.store %s1, %out[%i, %j] : memref<16x16xi32>
    }
  }
  // A reduction (initialized by its own loop) and a pointwise consumer.
  %s = memref.alloc() : memref<16xi32>
  affine.for %i = 0 to 16 {
    affine.store %zero, %s[%i] : memref<16xi32>
  }
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %v = affine.load %s[%i] : memref<16xi32>
      %a = affine.load %A[%i, %j] : memref<16x16xi32>
      %w = arith.addi %v, %a : i32
      affine.store %w, %s[%i] : memref<16xi32>
    }
  }
  affine.for %i = 0 to 16 {
    %v = affine.load %s[%i] : memref<16xi32>
    %w = arith.muli %v, %c2 : i32
    affine.store %w, %row[%i, 0] : memref<16x1xi32>
  }
  // Siblings reading the same column.
  affine.for %i = 0 to 16 {
    %a = affine.load %A[%i, 3] : memref<16x16xi32>
    %b = arith.addi %a, %one : i32
    affine.store %b, %B[%i, 0] : memref<16x1xi32>
  }
  affine.for %i = 0 to 16 {
    %a = affine.load %A[%i, 3] : memref<16x16xi32>
    %c = arith.muli %a, %c5 : i32
    affine.store %c, %C[%i, 0] : memref<16x1xi32>
  }
  // The consumer overwrites what the producer reads, one element ahead:
  // fusing would let a recomputed slice read the new value.
  %u = memref.alloc() : memref<17xi32>
  affine.for %i = 0 to 17 {
    %x = affine.load %X[%i, 0] : memref<17x1xi32>
    %d = arith.muli %x, %c2 : i32
    affine.store %d, %u[%i] : memref<17xi32>
  }
  affine.for %i = 0 to 16 {
    %p = affine.load %u[%i] : memref<17xi32>
    %q = affine.load %u[%i + 1] : memref<17xi32>
    %r = arith.addi %p, %q : i32
    affine.store %r, %X[%i + 1, 0] : memref<17x1xi32>
  }
  // A producer that updates its input in place (and writes a second
  // buffer), read by a consumer over half its range: the producer stays,
  // so a slice in the consumer would update the input a second time.
  affine.for %i = 0 to 16 {
    %p = affine.load %P[%i, 0] : memref<16x1xi32>
    %d = arith.muli %p, %c3 : i32
    affine.store %d, %P[%i, 0] : memref<16x1xi32>
    affine.store %d, %Q[%i, 0] : memref<16x1xi32>
  }
  affine.for %i = 0 to 8 {
    %p = affine.load %P[%i, 0] : memref<16x1xi32>
    %q = affine.load %Q[%i, 0] : memref<16x1xi32>
    %r = arith.addi %p, %q : i32
    affine.store %r, %C2[%i, 0] : memref<16x1xi32>
  }
  // Sibling reductions over one input, the second over half its range:
  // a loop carrying values is fused whole or not at all.
  affine.for %i = 0 to 16 {
    %sum = affine.for %k = 0 to 16 iter_args(%acc = %zero) -> i32 {
      %a = affine.load %A[%k, %i] : memref<16x16xi32>
      %n = arith.addi %acc, %a : i32
      affine.yield %n : i32
    }
    affine.store %sum, %R1[%i, 0] : memref<16x1xi32>
  }
  affine.for %i = 0 to 16 {
    %mix = affine.for %k = 0 to 8 iter_args(%acc = %one) -> i32 {
      %a = affine.load %A[%k, %i] : memref<16x16xi32>
      %d = arith.muli %acc, %c3 : i32
      %n = arith.addi %d, %a : i32
      affine.yield %n : i32
    }
    affine.store %mix, %R2[%i, 0] : memref<16x1xi32>
  }
  memref.dealloc %t : memref<16x16xi32>
  memref.dealloc %s : memref<16xi32>
  memref.dealloc %u : memref<17xi32>
  return
}

// Pairs of nests inside an affine.for body.
func.func @inner(%A: memref<16x16xi32>, %D: memref<6x16xi32>, %E: memref<16x1xi32>,
                 %F: memref<4x16xi32>, %G: memref<16x1xi32>, %H: memref<3x16xi32>,
                 %Y: memref<17x1xi32>, %S1: memref<16x1xi32>, %S2: memref<16x1xi32>,
                 %U: memref<16x1xi32>) {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %one = arith.constant 1 : i32
  // A producer into a buffer of the iteration, read at j and j + 1.
  affine.for %t = 0 to 6 {
    %tb = memref.alloc() : memref<16xi32>
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%t, %j] : memref<16x16xi32>
      %m = arith.muli %a, %c3 : i32
      %k = arith.index_cast %t : index to i32
      %n = arith.addi %m, %k : i32
      affine.store %n, %tb[%j] : memref<16xi32>
    }
    affine.for %j = 0 to 15 {
      %x = affine.load %tb[%j] : memref<16xi32>
      %y = affine.load %tb[%j + 1] : memref<16xi32>
      %y2 = arith.muli %y, %c2 : i32
      %s = arith.addi %x, %y2 : i32
      affine.store %s, %D[%t, %j] : memref<6x16xi32>
    }
    memref.dealloc %tb : memref<16xi32>
  }
  // A producer of a function argument, whose last values stay visible.
  affine.for %t = 0 to 4 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%j, %t] : memref<16x16xi32>
      %k = arith.index_cast %t : index to i32
      %n = arith.addi %a, %k : i32
      affine.store %n, %E[%j, 0] : memref<16x1xi32>
    }
    affine.for %j = 0 to 16 {
      %e = affine.load %E[%j, 0] : memref<16x1xi32>
      %f = arith.muli %e, %c5 : i32
      affine.store %f, %F[%t, %j] : memref<4x16xi32>
    }
  }
  // A producer updating its input in place at every iteration.
  affine.for %t = 0 to 3 {
    affine.for %j = 0 to 16 {
      %g = affine.load %G[%j, 0] : memref<16x1xi32>
      %g2 = arith.muli %g, %c2 : i32
      %g3 = arith.addi %g2, %one : i32
      affine.store %g3, %G[%j, 0] : memref<16x1xi32>
    }
    affine.for %j = 0 to 16 {
      %g = affine.load %G[%j, 0] : memref<16x1xi32>
      %h = arith.muli %g, %c3 : i32
      affine.store %h, %H[%t, %j] : memref<3x16xi32>
    }
  }
  // The consumer overwrites what the producer reads, one element ahead.
  affine.for %t = 0 to 3 {
    %u = memref.alloc() : memref<17xi32>
    affine.for %j = 0 to 17 {
      %y = affine.load %Y[%j, 0] : memref<17x1xi32>
      %d = arith.muli %y, %c2 : i32
      affine.store %d, %u[%j] : memref<17xi32>
    }
    affine.for %j = 0 to 16 {
      %p = affine.load %u[%j] : memref<17xi32>
      %q = affine.load %u[%j + 1] : memref<17xi32>
      %r = arith.subi %p, %q : i32
      affine.store %r, %Y[%j + 1, 0] : memref<17x1xi32>
    }
    memref.dealloc %u : memref<17xi32>
  }
  // Siblings reading one column over different ranges: fusing the
  // longer into the shorter would drop its last iterations.
  affine.for %i = 0 to 16 {
    %a = affine.load %A[%i, 5] : memref<16x16xi32>
    %b = arith.addi %a, %one : i32
    affine.store %b, %S1[%i, 0] : memref<16x1xi32>
  }
  affine.for %i = 0 to 9 {
    %a = affine.load %A[%i, 5] : memref<16x16xi32>
    %c = arith.muli %a, %c5 : i32
    affine.store %c, %S2[%i, 0] : memref<16x1xi32>
  }
  // A consumer reading its producer at i and over a constant range in an
  // inner loop: the slices' union is a constant range.
  %w = memref.alloc() : memref<16xi32>
  affine.for %i = 0 to 16 {
    %a = affine.load %A[%i, 7] : memref<16x16xi32>
    %d = arith.muli %a, %c3 : i32
    affine.store %d, %w[%i] : memref<16xi32>
  }
  affine.for %i = 2 to 9 {
    %x = affine.load %w[%i] : memref<16xi32>
    %s = affine.for %k = 6 to 14 iter_args(%acc = %x) -> i32 {
      %y = affine.load %w[%k] : memref<16xi32>
      %n = arith.addi %acc, %y : i32
      affine.yield %n : i32
    }
    affine.store %s, %U[%i, 0] : memref<16x1xi32>
  }
  memref.dealloc %w : memref<16xi32>
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

func.func @print(%M: memref<?x?xi32>, %fmt: !llvm.ptr) {
  %v = call @checksum(%M) : (memref<?x?xi32>) -> i32
  %r = llvm.call @printf(%fmt, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  return
}

func.func @main() -> i32 {
  %s1 = arith.constant 1 : index
  %s2 = arith.constant 2 : index
  %s3 = arith.constant 3 : index
  %A = memref.alloc() : memref<16x16xi32>
  %out = memref.alloc() : memref<16x16xi32>
  %row = memref.alloc() : memref<16x1xi32>
  %B = memref.alloc() : memref<16x1xi32>
  %C = memref.alloc() : memref<16x1xi32>
  %X = memref.alloc() : memref<17x1xi32>
  %Ad = memref.cast %A : memref<16x16xi32> to memref<?x?xi32>
  %outd = memref.cast %out : memref<16x16xi32> to memref<?x?xi32>
  %rowd = memref.cast %row : memref<16x1xi32> to memref<?x?xi32>
  %Bd = memref.cast %B : memref<16x1xi32> to memref<?x?xi32>
  %Cd = memref.cast %C : memref<16x1xi32> to memref<?x?xi32>
  %Xd = memref.cast %X : memref<17x1xi32> to memref<?x?xi32>
  call @fill(%Ad, %s1) : (memref<?x?xi32>, index) -> ()
  call @fill(%outd, %s2) : (memref<?x?xi32>, index) -> ()
  call @fill(%Xd, %s3) : (memref<?x?xi32>, index) -> ()
  %P = memref.alloc() : memref<16x1xi32>
  %Q = memref.alloc() : memref<16x1xi32>
  %C2 = memref.alloc() : memref<16x1xi32>
  %Pd = memref.cast %P : memref<16x1xi32> to memref<?x?xi32>
  %C2d = memref.cast %C2 : memref<16x1xi32> to memref<?x?xi32>
  call @fill(%Pd, %s2) : (memref<?x?xi32>, index) -> ()
  call @fill(%C2d, %s3) : (memref<?x?xi32>, index) -> ()
  %R1 = memref.alloc() : memref<16x1xi32>
  %R2 = memref.alloc() : memref<16x1xi32>
  %R1d = memref.cast %R1 : memref<16x1xi32> to memref<?x?xi32>
  %R2d = memref.cast %R2 : memref<16x1xi32> to memref<?x?xi32>
  call @kernel(%A, %out, %row, %B, %C, %X, %P, %Q, %C2, %R1, %R2)
      : (memref<16x16xi32>, memref<16x16xi32>, memref<16x1xi32>, memref<16x1xi32>, memref<16x1xi32>, memref<17x1xi32>,
         memref<16x1xi32>, memref<16x1xi32>, memref<16x1xi32>, memref<16x1xi32>, memref<16x1xi32>) -> ()
  %f0 = llvm.mlir.addressof @fmt_out : !llvm.ptr
  call @print(%outd, %f0) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %f1 = llvm.mlir.addressof @fmt_row : !llvm.ptr
  call @print(%rowd, %f1) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %f2 = llvm.mlir.addressof @fmt_b : !llvm.ptr
  call @print(%Bd, %f2) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %f3 = llvm.mlir.addressof @fmt_c : !llvm.ptr
  call @print(%Cd, %f3) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %f4 = llvm.mlir.addressof @fmt_x : !llvm.ptr
  call @print(%Xd, %f4) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %f5 = llvm.mlir.addressof @fmt_p : !llvm.ptr
  call @print(%C2d, %f5) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %f6 = llvm.mlir.addressof @fmt_r1 : !llvm.ptr
  call @print(%R1d, %f6) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %f7 = llvm.mlir.addressof @fmt_r2 : !llvm.ptr
  call @print(%R2d, %f7) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %D = memref.alloc() : memref<6x16xi32>
  %E = memref.alloc() : memref<16x1xi32>
  %F = memref.alloc() : memref<4x16xi32>
  %G = memref.alloc() : memref<16x1xi32>
  %H = memref.alloc() : memref<3x16xi32>
  %Y = memref.alloc() : memref<17x1xi32>
  %Dd = memref.cast %D : memref<6x16xi32> to memref<?x?xi32>
  %Ed = memref.cast %E : memref<16x1xi32> to memref<?x?xi32>
  %Fd = memref.cast %F : memref<4x16xi32> to memref<?x?xi32>
  %Gd = memref.cast %G : memref<16x1xi32> to memref<?x?xi32>
  %Hd = memref.cast %H : memref<3x16xi32> to memref<?x?xi32>
  %Yd = memref.cast %Y : memref<17x1xi32> to memref<?x?xi32>
  call @fill(%Dd, %s1) : (memref<?x?xi32>, index) -> ()
  call @fill(%Gd, %s2) : (memref<?x?xi32>, index) -> ()
  call @fill(%Yd, %s3) : (memref<?x?xi32>, index) -> ()
  %S1 = memref.alloc() : memref<16x1xi32>
  %S2 = memref.alloc() : memref<16x1xi32>
  %S1d = memref.cast %S1 : memref<16x1xi32> to memref<?x?xi32>
  %S2d = memref.cast %S2 : memref<16x1xi32> to memref<?x?xi32>
  call @fill(%S2d, %s1) : (memref<?x?xi32>, index) -> ()
  %U = memref.alloc() : memref<16x1xi32>
  %Ud = memref.cast %U : memref<16x1xi32> to memref<?x?xi32>
  call @fill(%Ud, %s2) : (memref<?x?xi32>, index) -> ()
  call @inner(%A, %D, %E, %F, %G, %H, %Y, %S1, %S2, %U)
      : (memref<16x16xi32>, memref<6x16xi32>, memref<16x1xi32>, memref<4x16xi32>, memref<16x1xi32>,
         memref<3x16xi32>, memref<17x1xi32>, memref<16x1xi32>, memref<16x1xi32>, memref<16x1xi32>) -> ()
  %g0 = llvm.mlir.addressof @fmt_id : !llvm.ptr
  call @print(%Dd, %g0) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %g1 = llvm.mlir.addressof @fmt_if : !llvm.ptr
  call @print(%Fd, %g1) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %g2 = llvm.mlir.addressof @fmt_ie : !llvm.ptr
  call @print(%Ed, %g2) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %g3 = llvm.mlir.addressof @fmt_ig : !llvm.ptr
  call @print(%Gd, %g3) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %g4 = llvm.mlir.addressof @fmt_ih : !llvm.ptr
  call @print(%Hd, %g4) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %g5 = llvm.mlir.addressof @fmt_iy : !llvm.ptr
  call @print(%Yd, %g5) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %g6 = llvm.mlir.addressof @fmt_s1 : !llvm.ptr
  call @print(%S1d, %g6) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %g7 = llvm.mlir.addressof @fmt_s2 : !llvm.ptr
  call @print(%S2d, %g7) : (memref<?x?xi32>, !llvm.ptr) -> ()
  %g8 = llvm.mlir.addressof @fmt_u : !llvm.ptr
  call @print(%Ud, %g8) : (memref<?x?xi32>, !llvm.ptr) -> ()
  memref.dealloc %U : memref<16x1xi32>
  memref.dealloc %S1 : memref<16x1xi32>
  memref.dealloc %S2 : memref<16x1xi32>
  memref.dealloc %D : memref<6x16xi32>
  memref.dealloc %E : memref<16x1xi32>
  memref.dealloc %F : memref<4x16xi32>
  memref.dealloc %G : memref<16x1xi32>
  memref.dealloc %H : memref<3x16xi32>
  memref.dealloc %Y : memref<17x1xi32>
  memref.dealloc %R1 : memref<16x1xi32>
  memref.dealloc %R2 : memref<16x1xi32>
  memref.dealloc %P : memref<16x1xi32>
  memref.dealloc %Q : memref<16x1xi32>
  memref.dealloc %C2 : memref<16x1xi32>
  memref.dealloc %A : memref<16x16xi32>
  memref.dealloc %out : memref<16x16xi32>
  memref.dealloc %row : memref<16x1xi32>
  memref.dealloc %B : memref<16x1xi32>
  memref.dealloc %C : memref<16x1xi32>
  memref.dealloc %X : memref<17x1xi32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
