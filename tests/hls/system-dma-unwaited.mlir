// A write-back started and never waited for: the kernel copies A into an
// on-chip buffer, computes on it, starts the transfer of the buffer out
// to B and returns without an affine.dma_wait. `done` must not rise
// before that transfer has landed: the controller waits in a drain state
// until no transfer is under way. Before, `done` rose the cycle after the
// start: behind the AXI wrapper the stream server saw no command yet and
// the run ended with B untouched (the outputs differed at line 1:
// software '1', accelerator '0'). The core alone: dma-unwaited.mlir.
// RUN: rm -rf %t.sys %t.d
// RUN: silica hls %s --top f --interface axi -o %t.d > /dev/null
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module f_axi %t.d/f.sv
// RUN: silica cosim %s --kernel f -o %t.sys | FileCheck %s
// RUN: FileCheck %s --check-prefix=OUT < %t.sys/software.stdout

// CHECK: system co-simulation of 'f': 64 lines of output identical
// CHECK-NEXT: call 1: {{[0-9]+}} cycles, 1 AXI read bursts, 1 AXI write bursts, 512 bytes;
// OUT: 1
// OUT-NEXT: 4
// OUT-NEXT: 7
llvm.mlir.global internal constant @fmt_word("%d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// B[i] = 3 * A[i] + 1, through an on-chip buffer; the transfer out is
// never waited for.
func.func @f(%A: memref<64xi32> {hls.name = "A"}, %B: memref<64xi32> {hls.name = "B"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %buf = memref.alloc() : memref<64xi32, 1>
  %tag = memref.alloc() : memref<2xi32>
  affine.dma_start %A[%c0], %buf[%c0], %tag[%c0], %c64 : memref<64xi32>, memref<64xi32, 1>, memref<2xi32>
  affine.dma_wait %tag[%c0], %c64 : memref<2xi32>
  affine.for %i = 0 to 64 {
    %a = affine.load %buf[%i] : memref<64xi32, 1>
    %c3 = arith.constant 3 : i32
    %c1 = arith.constant 1 : i32
    %p = arith.muli %a, %c3 : i32
    %s = arith.addi %p, %c1 : i32
    affine.store %s, %buf[%i] : memref<64xi32, 1>
  }
  affine.dma_start %buf[%c0], %B[%c0], %tag[1], %c64 : memref<64xi32, 1>, memref<64xi32>, memref<2xi32>
  return
}

func.func @main() -> i32 {
  %A = memref.alloc() : memref<64xi32>
  %B = memref.alloc() : memref<64xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0 : i32
  scf.for %i = %c0 to %c64 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %A[%i] : memref<64xi32>
    memref.store %z, %B[%i] : memref<64xi32>
  }
  func.call @f(%A, %B) : (memref<64xi32>, memref<64xi32>) -> ()
  %f = llvm.mlir.addressof @fmt_word : !llvm.ptr
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %B[%i] : memref<64xi32>
    %p = llvm.call @printf(%f, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  }
  return %z : i32
}
