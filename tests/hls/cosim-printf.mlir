// A kernel in a program that prints its results: the module declares
// C's printf, which the co-simulation harness then uses instead of
// declaring it again. A printf of another type is refused, naming the
// declaration the harness needs.
// RUN: rm -rf %t.d %t.e
// RUN: silica hls %s --top twice -o %t.d --sim | FileCheck %s
// RUN: echo 'llvm.func @printf(i32) -> i32 func.func @k(%a: memref<4xi32>) { return }' | not silica hls - --top k -o %t.e --sim 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ls %t.e

// CHECK: co-simulation (seed 1): 8 values match
// BAD: error: co-simulation: the kernel module defines '@printf' other than as `llvm.func @printf(!llvm.ptr, ...) -> i32`, a name the co-simulation harness uses
llvm.func @printf(!llvm.ptr, ...) -> i32
llvm.mlir.global internal constant @fmt("%d\0A\00") {addr_space = 0 : i32}

func.func @twice(%a: memref<8xi32>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %a[%i] : memref<8xi32>
    %w = arith.addi %v, %v : i32
    affine.store %w, %a[%i] : memref<8xi32>
  }
  return
}

func.func @main() -> i32 {
  %a = memref.alloc() : memref<8xi32>
  %one = arith.constant 1 : i32
  affine.for %i = 0 to 8 {
    affine.store %one, %a[%i] : memref<8xi32>
  }
  func.call @twice(%a) : (memref<8xi32>) -> ()
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<8xi32>
  %f = llvm.mlir.addressof @fmt : !llvm.ptr
  %r = llvm.call @printf(%f, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  %z = arith.constant 0 : i32
  return %z : i32
}
