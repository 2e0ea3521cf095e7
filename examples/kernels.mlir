// Six affine kernels and a main that fills their inputs, runs them and
// prints a checksum of each result with printf: a matrix multiplication,
// a 2-D convolution, a 5-point stencil, a reduction carried in
// iter_args, a kernel on dynamically sized memrefs, and one guarded by
// affine.if (with floordiv/mod subscripts). Lowered to LLVM IR and run
// in lli-22 by tests/e2e/kernels.mlir, timed by bench/llvm_bench.py.

llvm.mlir.global internal constant @fmt("%s %.6f\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @matmul_name("matmul\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @conv_name("conv2d\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @stencil_name("stencil\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @reduce_name("reduction\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @dyn_name("dynamic\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @if_name("affine_if\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// C[i, j] += A[i, k] * B[k, j]
func.func @matmul(%A: memref<64x48xf32>, %B: memref<48x32xf32>, %C: memref<64x32xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 48 {
        %a = affine.load %A[%i, %k] : memref<64x48xf32>
        %b = affine.load %B[%k, %j] : memref<48x32xf32>
        %c = affine.load %C[%i, %j] : memref<64x32xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<64x32xf32>
      }
    }
  }
  return
}

// O[i, j] = sum over p, q of I[i + p, j + q] * W[p, q]
func.func @conv2d(%I: memref<34x34xf32>, %W: memref<3x3xf32>, %O: memref<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %O[%i, %j] : memref<32x32xf32>
      affine.for %p = 0 to 3 {
        affine.for %q = 0 to 3 {
          %x = affine.load %I[%i + %p, %j + %q] : memref<34x34xf32>
          %w = affine.load %W[%p, %q] : memref<3x3xf32>
          %o = affine.load %O[%i, %j] : memref<32x32xf32>
          %m = arith.mulf %x, %w : f32
          %s = arith.addf %o, %m : f32
          affine.store %s, %O[%i, %j] : memref<32x32xf32>
        }
      }
    }
  }
  return
}

// A 5-point Jacobi step on the interior.
func.func @stencil(%In: memref<34x34xf32>, %Out: memref<34x34xf32>) {
  %fifth = arith.constant 0.2 : f32
  affine.for %i = 1 to 33 {
    affine.for %j = 1 to 33 {
      %c = affine.load %In[%i, %j] : memref<34x34xf32>
      %n = affine.load %In[%i - 1, %j] : memref<34x34xf32>
      %s = affine.load %In[%i + 1, %j] : memref<34x34xf32>
      %w = affine.load %In[%i, %j - 1] : memref<34x34xf32>
      %e = affine.load %In[%i, %j + 1] : memref<34x34xf32>
      %t0 = arith.addf %c, %n : f32
      %t1 = arith.addf %t0, %s : f32
      %t2 = arith.addf %t1, %w : f32
      %t3 = arith.addf %t2, %e : f32
      %v = arith.mulf %t3, %fifth : f32
      affine.store %v, %Out[%i, %j] : memref<34x34xf32>
    }
  }
  return
}

// Row sums of squares, carried in iter_args; returns their total.
func.func @reduction(%A: memref<64x48xf32>, %R: memref<64xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %total = affine.for %i = 0 to 64 iter_args(%acc = %zero) -> f32 {
    %row = affine.for %j = 0 to 48 iter_args(%r = %zero) -> f32 {
      %a = affine.load %A[%i, %j] : memref<64x48xf32>
      %sq = arith.mulf %a, %a : f32
      %n = arith.addf %r, %sq : f32
      affine.yield %n : f32
    }
    affine.store %row, %R[%i] : memref<64xf32>
    %next = arith.addf %acc, %row : f32
    affine.yield %next : f32
  }
  return %total : f32
}

// B[j, i] = A[i, j] * 2 + B[j, i] on memrefs of any size.
func.func @dynamic(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  %m = memref.dim %A, %c1 : memref<?x?xf32>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %m {
      %a = affine.load %A[%i, %j] : memref<?x?xf32>
      %b = affine.load %B[%j, %i] : memref<?x?xf32>
      %t = arith.mulf %a, %two : f32
      %s = arith.addf %t, %b : f32
      affine.store %s, %B[%j, %i] : memref<?x?xf32>
    }
  }
  return
}

// The lower triangle (i >= j, i + j even) gets A[i floordiv 2, j mod 7];
// the rest is cleared.
func.func @affine_if(%A: memref<64x48xf32>, %T: memref<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      affine.if affine_set<(d0, d1) : (d0 - d1 >= 0, (d0 + d1) mod 2 == 0)>(%i, %j) {
        %a = affine.load %A[%i floordiv 2, %j mod 7] : memref<64x48xf32>
        affine.store %a, %T[%i, %j] : memref<32x32xf32>
      } else {
        affine.store %zero, %T[%i, %j] : memref<32x32xf32>
      }
    }
  }
  return
}

// M[i, j] = ((i * 7 + j * 3) mod 11) * scale - 5
func.func @fill(%M: memref<?x?xf32>, %scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %five = arith.constant 5.0 : f32
  %n = memref.dim %M, %c0 : memref<?x?xf32>
  %m = memref.dim %M, %c1 : memref<?x?xf32>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %m {
      %k = affine.apply affine_map<(d0, d1) -> ((d0 * 7 + d1 * 3) mod 11)>(%i, %j)
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %v = arith.mulf %kf, %scale : f32
      %w = arith.subf %v, %five : f32
      affine.store %w, %M[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// The sum of M[i, j] * ((i + 2 * j) mod 5 + 1).
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

func.func @report(%name: !llvm.ptr, %v: f32) {
  %fmt = llvm.mlir.addressof @fmt : !llvm.ptr
  %d = arith.extf %v : f32 to f64
  %r = llvm.call @printf(%fmt, %name, %d) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, !llvm.ptr, f64) -> i32
  return
}

func.func @main() -> i32 {
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant 0.25 : f32
  %zero = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<64x48xf32>
  %B = memref.alloc() : memref<48x32xf32>
  %C = memref.alloc() : memref<64x32xf32>
  %Ad = memref.cast %A : memref<64x48xf32> to memref<?x?xf32>
  %Bd = memref.cast %B : memref<48x32xf32> to memref<?x?xf32>
  %Cd = memref.cast %C : memref<64x32xf32> to memref<?x?xf32>
  call @fill(%Ad, %half) : (memref<?x?xf32>, f32) -> ()
  call @fill(%Bd, %quarter) : (memref<?x?xf32>, f32) -> ()
  call @fill(%Cd, %zero) : (memref<?x?xf32>, f32) -> ()
  call @matmul(%A, %B, %C) : (memref<64x48xf32>, memref<48x32xf32>, memref<64x32xf32>) -> ()
  %s0 = call @checksum(%Cd) : (memref<?x?xf32>) -> f32
  %n0 = llvm.mlir.addressof @matmul_name : !llvm.ptr
  call @report(%n0, %s0) : (!llvm.ptr, f32) -> ()

  %I = memref.alloc() : memref<34x34xf32>
  %W = memref.alloca() : memref<3x3xf32>
  %O = memref.alloc() : memref<32x32xf32>
  %Id = memref.cast %I : memref<34x34xf32> to memref<?x?xf32>
  %Wd = memref.cast %W : memref<3x3xf32> to memref<?x?xf32>
  %Od = memref.cast %O : memref<32x32xf32> to memref<?x?xf32>
  call @fill(%Id, %half) : (memref<?x?xf32>, f32) -> ()
  call @fill(%Wd, %quarter) : (memref<?x?xf32>, f32) -> ()
  call @conv2d(%I, %W, %O) : (memref<34x34xf32>, memref<3x3xf32>, memref<32x32xf32>) -> ()
  %s1 = call @checksum(%Od) : (memref<?x?xf32>) -> f32
  %n1 = llvm.mlir.addressof @conv_name : !llvm.ptr
  call @report(%n1, %s1) : (!llvm.ptr, f32) -> ()

  %S = memref.alloc() : memref<34x34xf32>
  %Sd = memref.cast %S : memref<34x34xf32> to memref<?x?xf32>
  call @fill(%Sd, %zero) : (memref<?x?xf32>, f32) -> ()
  call @stencil(%I, %S) : (memref<34x34xf32>, memref<34x34xf32>) -> ()
  %s2 = call @checksum(%Sd) : (memref<?x?xf32>) -> f32
  %n2 = llvm.mlir.addressof @stencil_name : !llvm.ptr
  call @report(%n2, %s2) : (!llvm.ptr, f32) -> ()

  %R = memref.alloc() : memref<64xf32>
  %total = call @reduction(%A, %R) : (memref<64x48xf32>, memref<64xf32>) -> f32
  %c7 = arith.constant 7 : index
  %r7 = memref.load %R[%c7] : memref<64xf32>
  %s3 = arith.addf %total, %r7 : f32
  %n3 = llvm.mlir.addressof @reduce_name : !llvm.ptr
  call @report(%n3, %s3) : (!llvm.ptr, f32) -> ()

  %c40 = arith.constant 40 : index
  %c24 = arith.constant 24 : index
  %D = memref.alloc(%c40, %c24) : memref<?x?xf32>
  %E = memref.alloc(%c24, %c40) : memref<?x?xf32>
  call @fill(%D, %half) : (memref<?x?xf32>, f32) -> ()
  call @fill(%E, %quarter) : (memref<?x?xf32>, f32) -> ()
  call @dynamic(%D, %E) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %s4 = call @checksum(%E) : (memref<?x?xf32>) -> f32
  %n4 = llvm.mlir.addressof @dyn_name : !llvm.ptr
  call @report(%n4, %s4) : (!llvm.ptr, f32) -> ()

  %T = memref.alloc() : memref<32x32xf32>
  %Td = memref.cast %T : memref<32x32xf32> to memref<?x?xf32>
  call @affine_if(%A, %T) : (memref<64x48xf32>, memref<32x32xf32>) -> ()
  %s5 = call @checksum(%Td) : (memref<?x?xf32>) -> f32
  %n5 = llvm.mlir.addressof @if_name : !llvm.ptr
  call @report(%n5, %s5) : (!llvm.ptr, f32) -> ()

  memref.dealloc %A : memref<64x48xf32>
  memref.dealloc %B : memref<48x32xf32>
  memref.dealloc %C : memref<64x32xf32>
  memref.dealloc %I : memref<34x34xf32>
  memref.dealloc %O : memref<32x32xf32>
  memref.dealloc %S : memref<34x34xf32>
  memref.dealloc %R : memref<64xf32>
  memref.dealloc %D : memref<?x?xf32>
  memref.dealloc %E : memref<?x?xf32>
  memref.dealloc %T : memref<32x32xf32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
