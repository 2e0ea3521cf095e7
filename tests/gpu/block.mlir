// silica cosim --gpu --block 128: the kernel's one parallel loop tiled by
// 128, the 8 tiles on blocks of 128 threads, the last tile's threads past
// 1000 guarded; without --block, one block per iteration. Both give the
// software's output (behind the fake CUDA driver).
// RUN: rm -rf %t %t.plain
// RUN: silica cosim %s --kernel scale --gpu --gpu-driver fake --block 128 -o %t | FileCheck %s
// RUN: silica cosim %s --kernel scale --gpu --gpu-driver fake -o %t.plain | FileCheck %s --check-prefix=PLAIN
// RUN: silica gpu %s --top scale --block 128 -o %t.gpu | FileCheck %s --check-prefix=GPU
// RUN: FileCheck %s --check-prefix=GUARD < %t.gpu/scale.gpu.mlir
// CHECK: GPU co-simulation of 'scale': 143 lines of output identical
// CHECK-NEXT: scale_kernel on 8x1x1 blocks of 128x1x1 threads
// PLAIN: scale_kernel on 1000x1x1 blocks of 1x1x1 threads
// GPU: silica gpu: 'scale' for sm_90: 1 kernel(s) (scale_kernel)
// GUARD: llvm.icmp "slt"

llvm.mlir.global internal constant @fmt("%d %d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @scale(%x: memref<1000xi32>, %y: memref<1000xi32>) {
  affine.for %i = 0 to 1000 {
    %v = affine.load %x[%i] : memref<1000xi32>
    %w = arith.muli %v, %v : i32
    affine.store %w, %y[%i] : memref<1000xi32>
  }
  return
}

func.func @main() -> i32 {
  %x = memref.alloc() : memref<1000xi32>
  %y = memref.alloc() : memref<1000xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %m = arith.constant -1 : i32
  scf.for %i = %c0 to %c1000 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.subi %ii, %m : i32
    memref.store %v, %x[%i] : memref<1000xi32>
    memref.store %m, %y[%i] : memref<1000xi32>
  }
  func.call @scale(%x, %y) : (memref<1000xi32>, memref<1000xi32>) -> ()
  %f = llvm.mlir.addressof @fmt : !llvm.ptr
  %c7 = arith.constant 7 : index
  scf.for %i = %c0 to %c1000 step %c7 {
    %ii = arith.index_cast %i : index to i32
    %yv = memref.load %y[%i] : memref<1000xi32>
    %r = llvm.call @printf(%f, %ii, %yv) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i32) -> i32
  }
  %z = arith.constant 0 : i32
  return %z : i32
}
