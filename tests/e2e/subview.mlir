// A tiled reduction through memref.subview: each 4x4 tile of an 8x12
// matrix summed through a strided view, lowered by silica alone
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

llvm.mlir.global internal constant @fmt("tile %ld %ld sum %ld\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

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
  memref.dealloc %m : memref<8x12xi64>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
