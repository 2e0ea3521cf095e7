// The stream server serves the transfer the core waits for first. A
// 16x16 gemm tiled 4x4x16: per tile of C the core starts the prefetch of
// B's next tile (16 rows of 4 words), then loads C's tile and waits for
// it at once, computes, stores C's tile and waits for that. The engines
// say which transfer the controller waits for (`dma<n>_waited`), and the
// server moves that one's bursts ahead of B's prefetch, so C's load does
// not queue behind it. Served whole and in order the run takes 12,770
// cycles from the first register write to done, more than the 12,192 of
// a design that copies whole memrefs in and out around the run; the
// check below holds it under that figure.
// RUN: rm -rf %t.sys %t.d
// RUN: silica opt --affine-loop-tile="tile-sizes=4,4,16" --affine-data-copy-generate="generate-dma fast-mem-space=1 fast-mem-capacity=1" --affine-pipeline-data-transfer %s > %t.mlir
// RUN: silica hls %t.mlir --top gemm --interface axi -o %t.d > /dev/null
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module gemm_axi %t.d/gemm.sv
// RUN: FileCheck %s --check-prefix=SV < %t.d/gemm.sv
// RUN: silica cosim %t.mlir --kernel gemm -o %t.sys > %t.out
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=OUT < %t.sys/software.stdout
// RUN: latency=$(sed -n 's/.*first register write to done \([0-9]*\) cycles.*/\1/p' %t.out); \
// RUN: test -n "$latency" && test "$latency" -lt 12192

// SV: output{{.*}} dma0_waited
// SV: output{{.*}} dma1_waited
// SV: output{{.*}} dma2_waited
// CHECK: system co-simulation of 'gemm': 256 lines of output identical
// CHECK-NEXT: call 1: {{[0-9]+}} cycles, 324 AXI read bursts, 64 AXI write bursts, 7168 bytes; first register write to done {{[0-9]+}} cycles
// OUT: 2950
// OUT-NEXT: 2976
llvm.mlir.global internal constant @fmt_word("%d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// C += A * B (i, j, k order).
func.func @gemm(%A: memref<16x16xi32> {hls.name = "A"}, %B: memref<16x16xi32> {hls.name = "B"},
                %C: memref<16x16xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 16 {
        %a = affine.load %A[%i, %k] : memref<16x16xi32>
        %b = affine.load %B[%k, %j] : memref<16x16xi32>
        %c = affine.load %C[%i, %j] : memref<16x16xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<16x16xi32>
      }
    }
  }
  return
}

// M[i][j] = (i * 16 + j) mod 7 * s + t (plain loops: the tiling passes
// leave them).
func.func @fill(%M: memref<16x16xi32>, %s: i32, %t: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c7 = arith.constant 7 : i32
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %r = arith.muli %i, %c16 : index
      %k = arith.addi %r, %j : index
      %ki = arith.index_cast %k : index to i32
      %m = arith.remui %ki, %c7 : i32
      %p = arith.muli %m, %s : i32
      %v = arith.addi %p, %t : i32
      memref.store %v, %M[%i, %j] : memref<16x16xi32>
    }
  }
  return
}

func.func @show(%M: memref<16x16xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %f = llvm.mlir.addressof @fmt_word : !llvm.ptr
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %v = memref.load %M[%i, %j] : memref<16x16xi32>
      %p = llvm.call @printf(%f, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
    }
  }
  return
}

func.func @main() -> i32 {
  %A = memref.alloc() : memref<16x16xi32>
  %B = memref.alloc() : memref<16x16xi32>
  %C = memref.alloc() : memref<16x16xi32>
  %s1 = arith.constant 3 : i32
  %t1 = arith.constant 1 : i32
  %s2 = arith.constant 5 : i32
  %t2 = arith.constant 2 : i32
  %s3 = arith.constant 1 : i32
  %t3 = arith.constant 100 : i32
  %z = arith.constant 0 : i32
  func.call @fill(%A, %s1, %t1) : (memref<16x16xi32>, i32, i32) -> ()
  func.call @fill(%B, %s2, %t2) : (memref<16x16xi32>, i32, i32) -> ()
  func.call @fill(%C, %s3, %t3) : (memref<16x16xi32>, i32, i32) -> ()
  func.call @gemm(%A, %B, %C) : (memref<16x16xi32>, memref<16x16xi32>, memref<16x16xi32>) -> ()
  func.call @show(%C) : (memref<16x16xi32>) -> ()
  memref.dealloc %A : memref<16x16xi32>
  memref.dealloc %B : memref<16x16xi32>
  memref.dealloc %C : memref<16x16xi32>
  return %z : i32
}
