// Threads that would race: mlir-opt's mapping puts i on blocks and splits
// only the first j loop (directly in i's body) among threads; the k loop
// and its j loop would run in every thread, each adding to every C[i][j]
// (on a real GPU a warp's lockstep hides it up to 32 threads). silica gpu
// finds the block's body doing more than its split loop and runs it on
// one thread a block, as written: the fake driver, which runs threads one
// after another, gives the software's output. A perfect nest keeps its
// threads.
// RUN: rm -rf %t
// RUN: silica cosim %s --kernel gemm --gpu --gpu-driver fake -o %t 2>&1 | FileCheck %s
// CHECK: note: 'gemm': a loop on blocks does more than split its inner loops among threads (its threads would race): one thread a block runs it
// CHECK: GPU co-simulation of 'gemm': 18 lines of output identical
// CHECK-NEXT: gemm_kernel on 12x1x1 blocks of 1x1x1 threads
// A launch of an empty grid (the last k's j loop has no iteration) runs
// nothing: CUDA would refuse it.
// RUN: silica cosim %s --kernel tri --gpu --gpu-driver fake -o %t.t 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: GPU co-simulation of 'tri': 18 lines of output identical
// EMPTY: tri_kernel on 0x1x1 blocks of 1x1x1 threads
// RUN: silica gpu %s --top scale -o %t.s 2>&1 | FileCheck %s --check-prefix=PERFECT
// PERFECT-NOT: race
// PERFECT: silica gpu: 'scale' for sm_90: 1 kernel(s)
// RUN: FileCheck %s --check-prefix=THREADS < %t.s/scale.gpu.mlir
// THREADS: threads in (%{{.*}}, %{{.*}}, %{{.*}})  args
// THREADS: nvvm.read.ptx.sreg.tid.x

llvm.mlir.global internal constant @fmt("%d: %d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// C = 3 * C + A * B (PolyBench's gemm loop order).
func.func @gemm(%C: memref<12x10xi32>, %A: memref<12x8xi32>, %B: memref<8x10xi32>) {
  %c3 = arith.constant 3 : i32
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 10 {
      %c = affine.load %C[%i, %j] : memref<12x10xi32>
      %s = arith.muli %c, %c3 : i32
      affine.store %s, %C[%i, %j] : memref<12x10xi32>
    }
    affine.for %k = 0 to 8 {
      affine.for %j = 0 to 10 {
        %a = affine.load %A[%i, %k] : memref<12x8xi32>
        %b = affine.load %B[%k, %j] : memref<8x10xi32>
        %c = affine.load %C[%i, %j] : memref<12x10xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<12x10xi32>
      }
    }
  }
  return
}

func.func @scale(%C: memref<12x10xi32>) {
  %c3 = arith.constant 3 : i32
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 10 {
      %c = affine.load %C[%i, %j] : memref<12x10xi32>
      %s = arith.muli %c, %c3 : i32
      affine.store %s, %C[%i, %j] : memref<12x10xi32>
    }
  }
  return
}

// a[j] += a[k] * j for j > k, k after k.
func.func @tri(%a: memref<6xi32>) {
  affine.for %k = 0 to 6 {
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%k) to 6 {
      %x = affine.load %a[%k] : memref<6xi32>
      %y = affine.load %a[%j] : memref<6xi32>
      %jj = arith.index_cast %j : index to i32
      %p = arith.muli %x, %jj : i32
      %s = arith.addi %y, %p : i32
      affine.store %s, %a[%j] : memref<6xi32>
    }
  }
  return
}

func.func @main() -> i32 {
  %C = memref.alloc() : memref<12x10xi32>
  %A = memref.alloc() : memref<12x8xi32>
  %B = memref.alloc() : memref<8x10xi32>
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 10 {
      %v = affine.apply affine_map<(d0, d1) -> (d0 * 7 + d1 * 3 + 1)>(%i, %j)
      %w = arith.index_cast %v : index to i32
      affine.store %w, %C[%i, %j] : memref<12x10xi32>
    }
    affine.for %k = 0 to 8 {
      %v = affine.apply affine_map<(d0, d1) -> (d0 * 5 + d1 + 2)>(%i, %k)
      %w = arith.index_cast %v : index to i32
      affine.store %w, %A[%i, %k] : memref<12x8xi32>
    }
  }
  affine.for %k = 0 to 8 {
    affine.for %j = 0 to 10 {
      %v = affine.apply affine_map<(d0, d1) -> (d0 * 11 + d1 * 2 + 3)>(%k, %j)
      %w = arith.index_cast %v : index to i32
      affine.store %w, %B[%k, %j] : memref<8x10xi32>
    }
  }
  func.call @gemm(%C, %A, %B) : (memref<12x10xi32>, memref<12x8xi32>, memref<8x10xi32>) -> ()
  %f = llvm.mlir.addressof @fmt : !llvm.ptr
  %zero = arith.constant 0 : i32
  %T = memref.alloc() : memref<6xi32>
  affine.for %j = 0 to 6 {
    %v = affine.apply affine_map<(d0) -> (d0 * 3 + 1)>(%j)
    %w = arith.index_cast %v : index to i32
    affine.store %w, %T[%j] : memref<6xi32>
  }
  func.call @tri(%T) : (memref<6xi32>) -> ()
  affine.for %j = 0 to 6 {
    %t = affine.load %T[%j] : memref<6xi32>
    %jj = arith.index_cast %j : index to i32
    %r = llvm.call @printf(%f, %jj, %t) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i32) -> i32
  }
  affine.for %i = 0 to 12 {
    %sum = affine.for %j = 0 to 10 iter_args(%acc = %zero) -> (i32) {
      %c = affine.load %C[%i, %j] : memref<12x10xi32>
      %n = arith.addi %acc, %c : i32
      affine.yield %n : i32
    }
    %ii = arith.index_cast %i : index to i32
    %r = llvm.call @printf(%f, %ii, %sum) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i32) -> i32
  }
  %z = arith.constant 0 : i32
  return %z : i32
}
