// memref atomics, alloca scopes, transposed and reshaped views and
// uninitialized globals lowered by silica alone to LLVM IR and run in lli-22; the
// llvm-dialect module is byte-identical to mlir-opt-22's and the output
// matches the mlir-opt-22 + mlir-translate-22 pipeline's.
// RUN: diff <(silica opt --lower-affine --convert-scf-to-cf --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts %s) <(mlir-opt-22 --lower-affine --convert-scf-to-cf --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts %s)
// RUN: silica opt --lower-affine --convert-scf-to-cf --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts %s | silica translate --to-llvmir -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: lli-22 %t.ll > %t.silica.txt
// RUN: mlir-opt-22 --lower-affine --convert-scf-to-cf --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts %s | mlir-translate-22 --mlir-to-llvmir | lli-22 > %t.mlir.txt
// RUN: diff %t.silica.txt %t.mlir.txt
// RUN: FileCheck %s --input-file %t.silica.txt
// CHECK: atomics sum 45 max 9 min 0
// CHECK: scopes 70
// CHECK: transposed 6 9
// CHECK: global 7
// CHECK: reshaped 9 11

llvm.mlir.global internal constant @fmt_atomics("atomics sum %d max %d min %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_scopes("scopes %ld\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_transposed("transposed %ld %ld\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_global("global %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_reshaped("reshaped %ld %ld\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

memref.global "private" constant @shape_4x3 : memref<2xi64> = dense<[4, 3]>

// A 2x6 matrix of 0..11 read as 4x3 (static shape) and ?x3 (a size
// loaded from the shape operand at run time).
func.func @reshaped() {
  %m = memref.alloca() : memref<2x6xi64>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 6 {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 6 + d1)>(%i, %j)
      %v = arith.index_cast %k : index to i64
      affine.store %v, %m[%i, %j] : memref<2x6xi64>
    }
  }
  %shape = memref.get_global @shape_4x3 : memref<2xi64>
  %r = memref.reshape %m(%shape) : (memref<2x6xi64>, memref<2xi64>) -> memref<4x3xi64>
  %d = memref.reshape %m(%shape) : (memref<2x6xi64>, memref<2xi64>) -> memref<?x3xi64>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a = memref.load %r[%c3, %c0] : memref<4x3xi64>
  %b = memref.load %d[%c3, %c2] : memref<?x3xi64>
  %fmt = llvm.mlir.addressof @fmt_reshaped : !llvm.ptr
  %p = llvm.call @printf(%fmt, %a, %b) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64, i64) -> i32
  return
}

memref.global "private" @scratch : memref<4xi32> = uninitialized

func.func @atomics() {
  %acc = memref.alloca() : memref<3xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i32
  %big = arith.constant 100 : i32
  memref.store %zero, %acc[%c0] : memref<3xi32>
  memref.store %zero, %acc[%c1] : memref<3xi32>
  memref.store %big, %acc[%c2] : memref<3xi32>
  affine.for %i = 0 to 10 {
    %v = arith.index_cast %i : index to i32
    %s = memref.atomic_rmw addi %v, %acc[%c0] : (i32, memref<3xi32>) -> i32
    %m = memref.generic_atomic_rmw %acc[%c1] : memref<3xi32> {
    ^bb0(%cur: i32):
      %n = arith.maxsi %cur, %v : i32
      memref.atomic_yield %n : i32
    }
    %l = memref.atomic_rmw mins %v, %acc[%c2] : (i32, memref<3xi32>) -> i32
  }
  %sum = memref.load %acc[%c0] : memref<3xi32>
  %max = memref.load %acc[%c1] : memref<3xi32>
  %min = memref.load %acc[%c2] : memref<3xi32>
  %fmt = llvm.mlir.addressof @fmt_atomics : !llvm.ptr
  %r = llvm.call @printf(%fmt, %sum, %max, %min) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i32, i32) -> i32
  return
}

// Each iteration's stack buffer lives in its own scope.
func.func @scopes() {
  %zero = arith.constant 0 : i64
  %total = affine.for %i = 1 to 6 iter_args(%t = %zero) -> i64 {
    %p = memref.alloca_scope -> i64 {
      %buf = memref.alloca() : memref<64xi64>
      %c0 = arith.constant 0 : index
      %v = arith.index_cast %i : index to i64
      memref.store %v, %buf[%c0] : memref<64xi64>
      %x = memref.load %buf[%c0] : memref<64xi64>
      %sq = arith.muli %x, %x : i64
      %y = arith.addi %sq, %x : i64
      memref.alloca_scope.return %y : i64
    }
    %n = arith.addi %t, %p : i64
    affine.yield %n : i64
  }
  %fmt = llvm.mlir.addressof @fmt_scopes : !llvm.ptr
  %r = llvm.call @printf(%fmt, %total) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64) -> i32
  return
}

// Element (1, 2) of a 3x4 matrix holds 6; its transpose reads it at (2, 1).
func.func @transposed() {
  %m = memref.alloca() : memref<3x4xi64>
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 4 {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%i, %j)
      %v = arith.index_cast %k : index to i64
      affine.store %v, %m[%i, %j] : memref<3x4xi64>
    }
  }
  %t = memref.transpose %m (i, j) -> (j, i) : memref<3x4xi64> to memref<4x3xi64, strided<[1, 4]>>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.load %t[%c2, %c1] : memref<4x3xi64, strided<[1, 4]>>
  %b = memref.load %t[%c1, %c2] : memref<4x3xi64, strided<[1, 4]>>
  %fmt = llvm.mlir.addressof @fmt_transposed : !llvm.ptr
  %r = llvm.call @printf(%fmt, %a, %b) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64, i64) -> i32
  return
}

func.func @global() {
  %g = memref.get_global @scratch : memref<4xi32>
  %c3 = arith.constant 3 : index
  %seven = arith.constant 7 : i32
  memref.store %seven, %g[%c3] {alignment = 4} : memref<4xi32>
  %v = memref.load %g[%c3] {alignment = 4} : memref<4xi32>
  %fmt = llvm.mlir.addressof @fmt_global : !llvm.ptr
  %r = llvm.call @printf(%fmt, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  return
}

func.func @main() -> i32 {
  call @atomics() : () -> ()
  call @scopes() : () -> ()
  call @transposed() : () -> ()
  call @global() : () -> ()
  call @reshaped() : () -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
