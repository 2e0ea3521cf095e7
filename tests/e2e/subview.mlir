// A tiled reduction through memref.subview: each 4x4 tile of an 8x12
// matrix summed through a strided view, and a view with dynamic offsets,
// sizes and strides (the descriptor takes sizes and strides from their
// own operand groups), lowered by silica alone
// (expand-strided-metadata, lower-affine, convert-to-llvm) and run in
// lli-22; the output matches the mlir-opt-22 + mlir-translate-22 pipeline's.
// RUN: silica opt --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts %s | silica translate --to-llvmir -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: lli-22 %t.ll > %t.silica.txt
// RUN: mlir-opt-22 --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts %s | mlir-translate-22 --mlir-to-llvmir | lli-22 > %t.mlir.txt
// RUN: diff %t.silica.txt %t.mlir.txt
// RUN: FileCheck %s --input-file %t.silica.txt
// CHECK: tile 0 0 sum 312
// CHECK: tile 1 2 sum 1208
// CHECK: strided 3x3 sum 369

llvm.mlir.global internal constant @fmt("tile %ld %ld sum %ld\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt2("strided %ldx%ld sum %ld\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @view_sum(%m: memref<8x12xi64>, %o0: index, %o1: index, %n0: index, %n1: index, %s0: index, %s1: index) -> i64 {
  %v = memref.subview %m[%o0, %o1][%n0, %n1][%s0, %s1] : memref<8x12xi64> to memref<?x?xi64, strided<[?, ?], offset: ?>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %v, %c0 : memref<?x?xi64, strided<[?, ?], offset: ?>>
  %cols = memref.dim %v, %c1 : memref<?x?xi64, strided<[?, ?], offset: ?>>
  %zero = arith.constant 0 : i64
  %s = affine.for %i = 0 to %rows iter_args(%a = %zero) -> i64 {
    %r = affine.for %j = 0 to %cols iter_args(%b = %a) -> i64 {
      %x = affine.load %v[%i, %j] : memref<?x?xi64, strided<[?, ?], offset: ?>>
      %n = arith.addi %b, %x : i64
      affine.yield %n : i64
    }
    affine.yield %r : i64
  }
  return %s : i64
}

func.func @tile_sum(%t: memref<4x4xi64, strided<[12, 1], offset: ?>>) -> i64 {
  %zero = arith.constant 0 : i64
  %s = affine.for %i = 0 to 4 iter_args(%a = %zero) -> i64 {
    %r = affine.for %j = 0 to 4 iter_args(%b = %a) -> i64 {
      %v = affine.load %t[%i, %j] : memref<4x4xi64, strided<[12, 1], offset: ?>>
      %n = arith.addi %b, %v : i64
      affine.yield %n : i64
    }
    affine.yield %r : i64
  }
  return %s : i64
}

func.func @main() -> i32 {
  %m = memref.alloc() : memref<8x12xi64>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 12 {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 12 + d1)>(%i, %j)
      %v = arith.index_cast %k : index to i64
      affine.store %v, %m[%i, %j] : memref<8x12xi64>
    }
  }
  %fmt = llvm.mlir.addressof @fmt : !llvm.ptr
  affine.for %ti = 0 to 2 {
    affine.for %tj = 0 to 3 {
      %oi = affine.apply affine_map<(d0) -> (d0 * 4)>(%ti)
      %oj = affine.apply affine_map<(d0) -> (d0 * 4)>(%tj)
      %tile = memref.subview %m[%oi, %oj][4, 4][1, 1] : memref<8x12xi64> to memref<4x4xi64, strided<[12, 1], offset: ?>>
      %s = func.call @tile_sum(%tile) : (memref<4x4xi64, strided<[12, 1], offset: ?>>) -> i64
      %a = arith.index_cast %ti : index to i64
      %b = arith.index_cast %tj : index to i64
      %r = llvm.call @printf(%fmt, %a, %b, %s) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64, i64, i64) -> i32
    }
  }
  // Rows 1, 3, 5 and columns 2, 5, 8: 3 * (12 + 36 + 60) + 3 * 15 = 369.
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %vs = func.call @view_sum(%m, %c1, %c2, %c3, %c3, %c2, %c3) : (memref<8x12xi64>, index, index, index, index, index, index) -> i64
  %fmt2 = llvm.mlir.addressof @fmt2 : !llvm.ptr
  %three = arith.constant 3 : i64
  %r2 = llvm.call @printf(%fmt2, %three, %three, %vs) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64, i64, i64) -> i32
  memref.dealloc %m : memref<8x12xi64>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
