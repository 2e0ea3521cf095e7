// System co-simulation of a kernel with DMA and double buffering: the
// program's kernel tiled 4x8, its tiles copied into on-chip buffers by
// affine.dma_start (affine-data-copy-generate) one tile ahead
// (affine-pipeline-data-transfer); the program's own loops are scf and
// stay as they are. Through the AXI wrapper, the core's DMA engines move
// tiles between the wrapper's RAMs and the tile buffers.
// RUN: rm -rf %t.sys
// RUN: silica opt --affine-loop-tile="tile-sizes=4,8" --affine-data-copy-generate="generate-dma fast-mem-space=1 fast-mem-capacity=1" --affine-pipeline-data-transfer %s > %t.mlir
// RUN: FileCheck %s --check-prefix=DMA < %t.mlir
// RUN: silica cosim %t.mlir --kernel f -o %t.sys | FileCheck %s
// RUN: FileCheck %s --check-prefix=OUT < %t.sys/software.stdout

// DMA: affine.dma_start
// DMA: affine.dma_wait
// CHECK: system co-simulation of 'f': 128 lines of output identical
// CHECK-NEXT: call 1: {{[0-9]+}} cycles, 3 AXI read bursts, 1 AXI write bursts, 2048 bytes;
// OUT: -300300
// OUT-NEXT: -289484
llvm.mlir.global internal constant @fmt_word("%d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// C = A * B + A, tiled 4x8 by the RUN line's passes: tiles copied into
// on-chip buffers by affine.dma_start, double-buffered.
func.func @f(%A: memref<8x16xi32> {hls.name = "A"}, %B: memref<8x16xi32> {hls.name = "B"},
             %C: memref<8x16xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<8x16xi32>
      %b = affine.load %B[%i, %j] : memref<8x16xi32>
      %p = arith.muli %a, %b : i32
      %c = arith.addi %p, %a : i32
      affine.store %c, %C[%i, %j] : memref<8x16xi32>
    }
  }
  return
}

// M[i][j] = (i * 16 + j) * s + t (plain loops: the tiling passes leave them).
func.func @fill(%M: memref<8x16xi32>, %s: i32, %t: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %r = arith.muli %i, %c16 : index
      %k = arith.addi %r, %j : index
      %ki = arith.index_cast %k : index to i32
      %m = arith.muli %ki, %s : i32
      %v = arith.addi %m, %t : i32
      memref.store %v, %M[%i, %j] : memref<8x16xi32>
    }
  }
  return
}

func.func @show(%M: memref<8x16xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %f = llvm.mlir.addressof @fmt_word : !llvm.ptr
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %v = memref.load %M[%i, %j] : memref<8x16xi32>
      %p = llvm.call @printf(%f, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
    }
  }
  return
}

func.func @main() -> i32 {
  %A = memref.alloc() : memref<8x16xi32>
  %B = memref.alloc() : memref<8x16xi32>
  %C = memref.alloc() : memref<8x16xi32>
  %s1 = arith.constant 7 : i32
  %t1 = arith.constant -300 : i32
  %s2 = arith.constant -13 : i32
  %t2 = arith.constant 1000 : i32
  %z = arith.constant 0 : i32
  func.call @fill(%A, %s1, %t1) : (memref<8x16xi32>, i32, i32) -> ()
  func.call @fill(%B, %s2, %t2) : (memref<8x16xi32>, i32, i32) -> ()
  func.call @fill(%C, %z, %z) : (memref<8x16xi32>, i32, i32) -> ()
  func.call @f(%A, %B, %C) : (memref<8x16xi32>, memref<8x16xi32>, memref<8x16xi32>) -> ()
  func.call @show(%C) : (memref<8x16xi32>) -> ()
  memref.dealloc %A : memref<8x16xi32>
  memref.dealloc %B : memref<8x16xi32>
  memref.dealloc %C : memref<8x16xi32>
  return %z : i32
}
