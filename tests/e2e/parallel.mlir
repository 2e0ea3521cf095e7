// affine.parallel with reductions (sum, max, product of a 2-D array)
// lowered by silica alone to LLVM IR and run in lli-22; the output
// matches the mlir-opt-22 + mlir-translate-22 pipeline's.
// RUN: silica opt --lower-affine --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts %s | silica translate --to-llvmir -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: lli-22 %t.ll > %t.silica.txt
// RUN: mlir-opt-22 --lower-affine --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts %s | mlir-translate-22 --mlir-to-llvmir | lli-22 > %t.mlir.txt
// RUN: diff %t.silica.txt %t.mlir.txt
// RUN: FileCheck %s --input-file %t.silica.txt
// CHECK: sum 1848.000000 max 19.000000 prod 5040

llvm.mlir.global internal constant @fmt("sum %f max %f prod %ld\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @main() -> i32 {
  %m = memref.alloc() : memref<12x16xf32>
  affine.parallel (%i, %j) = (0, 0) to (12, 16) {
    %k = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1) mod 20)>(%i, %j)
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    affine.store %kf, %m[%i, %j] : memref<12x16xf32>
  }
  %sum, %max = affine.parallel (%i, %j) = (0, 0) to (12, 16) reduce ("addf", "maximumf") -> (f32, f32) {
    %v = affine.load %m[%i, %j] : memref<12x16xf32>
    affine.yield %v, %v : f32, f32
  }
  %prod = affine.parallel (%i) = (1) to (8) reduce ("muli") -> (i64) {
    %ii = arith.index_cast %i : index to i64
    affine.yield %ii : i64
  }
  %fmt = llvm.mlir.addressof @fmt : !llvm.ptr
  %s = arith.extf %sum : f32 to f64
  %x = arith.extf %max : f32 to f64
  %r = llvm.call @printf(%fmt, %s, %x, %prod) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f64, f64, i64) -> i32
  memref.dealloc %m : memref<12x16xf32>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
