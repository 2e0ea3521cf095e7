// System co-simulation of a float kernel: gemm on f32 (C = alpha A B +
// beta C, 4x4; the f32 scalars go through their registers as bits),
// called twice with different matrices and scalars; every element
// printed as its bits.
// RUN: rm -rf %t.sys
// RUN: silica cosim %s --kernel gemm -o %t.sys | FileCheck %s
// RUN: FileCheck %s --check-prefix=OUT < %t.sys/software.stdout

// CHECK: system co-simulation of 'gemm': 32 lines of output identical
// CHECK-NEXT: call 1: {{[0-9]+}} cycles, 3 AXI read bursts, 1 AXI write bursts, 256 bytes;
// CHECK-NEXT: call 2: {{[0-9]+}} cycles, 3 AXI read bursts, 1 AXI write bursts, 256 bytes;
// OUT: c085851f
// OUT: 4349677a
// System co-simulation of a float kernel: gemm on f32 (C = alpha A B +
// beta C, 4x4), called twice with different matrices and scalars.
llvm.mlir.global internal constant @fmt_word("%08x\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @gemm(%alpha: f32 {hls.name = "alpha"}, %beta: f32 {hls.name = "beta"},
                %A: memref<4x4xf32> {hls.name = "A"}, %B: memref<4x4xf32> {hls.name = "B"},
                %C: memref<4x4xf32> {hls.name = "C"}) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      %c = affine.load %C[%i, %j] : memref<4x4xf32>
      %c0 = arith.mulf %beta, %c : f32
      %s = affine.for %k = 0 to 4 iter_args(%acc = %c0) -> (f32) {
        %x = affine.load %A[%i, %k] : memref<4x4xf32>
        %y = affine.load %B[%k, %j] : memref<4x4xf32>
        %ax = arith.mulf %alpha, %x : f32
        %p = arith.mulf %ax, %y : f32
        %n = arith.addf %acc, %p : f32
        affine.yield %n : f32
      }
      affine.store %s, %C[%i, %j] : memref<4x4xf32>
    }
  }
  return
}

// M[i][j] = (i * 4 + j) * s + t.
func.func @fill(%M: memref<4x4xf32>, %s: f32, %t: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %r = arith.muli %i, %c4 : index
      %k = arith.addi %r, %j : index
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %m = arith.mulf %kf, %s : f32
      %v = arith.addf %m, %t : f32
      memref.store %v, %M[%i, %j] : memref<4x4xf32>
    }
  }
  return
}

// Every element's bits, one a line.
func.func @show(%M: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = llvm.mlir.addressof @fmt_word : !llvm.ptr
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %M[%i, %j] : memref<4x4xf32>
      %b = arith.bitcast %v : f32 to i32
      %p = llvm.call @printf(%f, %b) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
    }
  }
  return
}

func.func @main() -> i32 {
  %A = memref.alloc() : memref<4x4xf32>
  %B = memref.alloc() : memref<4x4xf32>
  %C = memref.alloc() : memref<4x4xf32>
  %a1 = arith.constant 0.37 : f32
  %a2 = arith.constant -1.25 : f32
  %b1 = arith.constant 3.0e-3 : f32
  %b2 = arith.constant 7.5 : f32
  %m1 = arith.constant -0.1 : f32
  func.call @fill(%A, %a1, %a2) : (memref<4x4xf32>, f32, f32) -> ()
  func.call @fill(%B, %a2, %b2) : (memref<4x4xf32>, f32, f32) -> ()
  func.call @fill(%C, %b1, %m1) : (memref<4x4xf32>, f32, f32) -> ()
  func.call @gemm(%a1, %b2, %A, %B, %C) : (f32, f32, memref<4x4xf32>, memref<4x4xf32>, memref<4x4xf32>) -> ()
  func.call @show(%C) : (memref<4x4xf32>) -> ()
  // Again on the result, other scalars and a new A.
  func.call @fill(%A, %b2, %b1) : (memref<4x4xf32>, f32, f32) -> ()
  func.call @gemm(%m1, %a2, %A, %B, %C) : (f32, f32, memref<4x4xf32>, memref<4x4xf32>, memref<4x4xf32>) -> ()
  func.call @show(%C) : (memref<4x4xf32>) -> ()
  memref.dealloc %A : memref<4x4xf32>
  memref.dealloc %B : memref<4x4xf32>
  memref.dealloc %C : memref<4x4xf32>
  %z = arith.constant 0 : i32
  return %z : i32
}
