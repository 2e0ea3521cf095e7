// DMA engines of a callee stream too: `g` is tiled by 64 with its tiles
// copied into on-chip buffers by affine.dma_start, one tile ahead; the
// top `f` calls it twice, on (A, B) and on (C, D), memrefs that nothing
// else uses. So g's module has stream ports instead of memory ports for
// x and y, and each call's instance's streams are the top's
// (call0_dma0, call0_dma1, call1_dma0, call1_dma1): A to D stay in host
// memory and the AXI master moves the tiles while g computes, as for the
// top's own engines (before, the wrapper copied all four memrefs in and
// out around the run). The overlap check as in system-dma.mlir: 1,024
// iterations of g's pipelined loops need at least 1,024 cycles.
// RUN: rm -rf %t.sys %t.d
// RUN: silica opt --affine-loop-tile="tile-sizes=64" --affine-data-copy-generate="generate-dma fast-mem-space=1 fast-mem-capacity=1" --affine-pipeline-data-transfer %s > %t.mlir
// RUN: silica hls %t.mlir --top f --interface axi -o %t.d > /dev/null
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module f_axi %t.d/f.sv
// RUN: FileCheck %s --check-prefix=JSON < %t.d/f.json
// RUN: silica cosim %t.mlir --kernel f -o %t.sys > %t.out
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=OUT < %t.sys/software.stdout
// RUN: latency=$(sed -n 's/.*first register write to done \([0-9]*\) cycles.*/\1/p' %t.out); \
// RUN: busy=$(sed -n 's/.*AXI busy \([0-9]*\) .*/\1/p' %t.out); \
// RUN: test -n "$latency" && test -n "$busy" && test "$latency" -lt $((busy + 1024))

// JSON: "streams": [
// JSON: "name": "call0_dma0",
// JSON: "memory": "A",
// JSON: "name": "call0_dma1",
// JSON: "memory": "B",
// JSON: "name": "call1_dma0",
// JSON: "memory": "C",
// JSON: "name": "call1_dma1",
// JSON: "memory": "D",
// CHECK: system co-simulation of 'f': 1024 lines of output identical
// CHECK-NEXT: call 1: {{[0-9]+}} cycles, 16 AXI read bursts, 16 AXI write bursts, 8192 bytes; first register write to done {{[0-9]+}} cycles, AXI busy {{[0-9]+}}
// OUT: 1
// OUT-NEXT: 1
// OUT-NEXT: 2
// OUT-NEXT: 10
llvm.mlir.global internal constant @fmt_word("%d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// y[i] = x[i] * x[i] + 1.
func.func @g(%x: memref<512xi32>, %y: memref<512xi32>) {
  affine.for %i = 0 to 512 {
    %a = affine.load %x[%i] : memref<512xi32>
    %p = arith.muli %a, %a : i32
    %c1 = arith.constant 1 : i32
    %s = arith.addi %p, %c1 : i32
    affine.store %s, %y[%i] : memref<512xi32>
  }
  return
}

func.func @f(%A: memref<512xi32> {hls.name = "A"}, %B: memref<512xi32> {hls.name = "B"},
             %C: memref<512xi32> {hls.name = "C"}, %D: memref<512xi32> {hls.name = "D"}) {
  func.call @g(%A, %B) : (memref<512xi32>, memref<512xi32>) -> ()
  func.call @g(%C, %D) : (memref<512xi32>, memref<512xi32>) -> ()
  return
}

func.func @main() -> i32 {
  %A = memref.alloc() : memref<512xi32>
  %B = memref.alloc() : memref<512xi32>
  %C = memref.alloc() : memref<512xi32>
  %D = memref.alloc() : memref<512xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 512 : index
  %z = arith.constant 0 : i32
  %m = arith.constant -3 : i32
  scf.for %i = %c0 to %c64 step %c1 {
    %v = arith.index_cast %i : index to i32
    %w = arith.muli %v, %m : i32
    memref.store %v, %A[%i] : memref<512xi32>
    memref.store %z, %B[%i] : memref<512xi32>
    memref.store %w, %C[%i] : memref<512xi32>
    memref.store %z, %D[%i] : memref<512xi32>
  }
  func.call @f(%A, %B, %C, %D) : (memref<512xi32>, memref<512xi32>, memref<512xi32>, memref<512xi32>) -> ()
  %f = llvm.mlir.addressof @fmt_word : !llvm.ptr
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %B[%i] : memref<512xi32>
    %p = llvm.call @printf(%f, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
    %u = memref.load %D[%i] : memref<512xi32>
    %q = llvm.call @printf(%f, %u) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  }
  return %z : i32
}
