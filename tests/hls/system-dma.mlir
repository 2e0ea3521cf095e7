// System co-simulation of a kernel with DMA and double buffering: the
// program's kernel tiled 4x8, its tiles copied into on-chip buffers by
// affine.dma_start (affine-data-copy-generate) one tile ahead
// (affine-pipeline-data-transfer); the program's own loops are scf and
// stay as they are. Behind the AXI wrapper the core's DMA engines stream:
// A, B and C stay in host memory and the wrapper's master moves each
// tile as bursts, a burst per tile row (16 tiles: 4 rows of A and of B
// in, 4 rows of C out), while the core computes on the other buffer.
// The overlap check: the cycles from the first register write to done
// are fewer than the AXI busy cycles plus the 512 cycles the kernel's
// loop needs at least, which cannot be unless transfers and computation
// happen at the same time (copying everything before the run and after
// it, as the wrapper does for memrefs the core reads itself, fails it).
// RUN: rm -rf %t.sys %t.d
// RUN: silica opt --affine-loop-tile="tile-sizes=4,8" --affine-data-copy-generate="generate-dma fast-mem-space=1 fast-mem-capacity=1" --affine-pipeline-data-transfer %s > %t.mlir
// RUN: FileCheck %s --check-prefix=DMA < %t.mlir
// RUN: silica hls %t.mlir --top f --interface axi -o %t.d > /dev/null
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module f_axi %t.d/f.sv
// RUN: FileCheck %s --check-prefix=JSON < %t.d/f.json
// RUN: silica cosim %t.mlir --kernel f -o %t.sys > %t.out
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=OUT < %t.sys/software.stdout
// RUN: latency=$(sed -n 's/.*first register write to done \([0-9]*\) cycles.*/\1/p' %t.out); \
// RUN: busy=$(sed -n 's/.*AXI busy \([0-9]*\) .*/\1/p' %t.out); \
// RUN: test -n "$latency" && test -n "$busy" && test "$latency" -lt $((busy + 512))

// DMA: affine.dma_start
// DMA: affine.dma_wait
// CHECK: system co-simulation of 'f': 512 lines of output identical
// CHECK-NEXT: call 1: {{[0-9]+}} cycles, 128 AXI read bursts, 64 AXI write bursts, 6144 bytes; first register write to done {{[0-9]+}} cycles, AXI busy {{[0-9]+}}
// JSON: "streamed": true
// JSON: "streams": [
// JSON: "name": "dma0",
// OUT: -300300
// OUT-NEXT: -289484
llvm.mlir.global internal constant @fmt_word("%d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// C = A * B + A, tiled 4x8 by the RUN line's passes: tiles copied into
// on-chip buffers by affine.dma_start, double-buffered; 512 iterations of
// a pipelined loop, so at least 512 cycles of computation.
func.func @f(%A: memref<16x32xi32> {hls.name = "A"}, %B: memref<16x32xi32> {hls.name = "B"},
             %C: memref<16x32xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 32 {
      %a = affine.load %A[%i, %j] : memref<16x32xi32>
      %b = affine.load %B[%i, %j] : memref<16x32xi32>
      %p = arith.muli %a, %b : i32
      %c = arith.addi %p, %a : i32
      affine.store %c, %C[%i, %j] : memref<16x32xi32>
    }
  }
  return
}

// M[i][j] = (i * 16 + j) * s + t (plain loops: the tiling passes leave them).
func.func @fill(%M: memref<16x32xi32>, %s: i32, %t: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %r = arith.muli %i, %c32 : index
      %k = arith.addi %r, %j : index
      %ki = arith.index_cast %k : index to i32
      %m = arith.muli %ki, %s : i32
      %v = arith.addi %m, %t : i32
      memref.store %v, %M[%i, %j] : memref<16x32xi32>
    }
  }
  return
}

func.func @show(%M: memref<16x32xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c16 = arith.constant 16 : index
  %f = llvm.mlir.addressof @fmt_word : !llvm.ptr
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %v = memref.load %M[%i, %j] : memref<16x32xi32>
      %p = llvm.call @printf(%f, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
    }
  }
  return
}

func.func @main() -> i32 {
  %A = memref.alloc() : memref<16x32xi32>
  %B = memref.alloc() : memref<16x32xi32>
  %C = memref.alloc() : memref<16x32xi32>
  %s1 = arith.constant 7 : i32
  %t1 = arith.constant -300 : i32
  %s2 = arith.constant -13 : i32
  %t2 = arith.constant 1000 : i32
  %z = arith.constant 0 : i32
  func.call @fill(%A, %s1, %t1) : (memref<16x32xi32>, i32, i32) -> ()
  func.call @fill(%B, %s2, %t2) : (memref<16x32xi32>, i32, i32) -> ()
  func.call @fill(%C, %z, %z) : (memref<16x32xi32>, i32, i32) -> ()
  func.call @f(%A, %B, %C) : (memref<16x32xi32>, memref<16x32xi32>, memref<16x32xi32>) -> ()
  func.call @show(%C) : (memref<16x32xi32>) -> ()
  memref.dealloc %A : memref<16x32xi32>
  memref.dealloc %B : memref<16x32xi32>
  memref.dealloc %C : memref<16x32xi32>
  return %z : i32
}
