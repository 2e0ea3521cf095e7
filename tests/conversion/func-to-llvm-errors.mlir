// Errors a conversion reports without failing, as MLIR's patterns do when
// they emit an error and decline: convert-func-to-llvm reports an
// llvm.linkage that is not a linkage attribute, or a C interface for a
// variadic function, at the function and leaves it; a memref memory space
// that is not an address space is reported once, at no location, and the
// ops using it stay. The output is written and the exit status is 0, as
// with mlir-opt-22 (the last RUN line checks it agrees).
// RUN: silica opt --convert-func-to-llvm %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: FileCheck %s < %t.mlir
// RUN: silica opt --convert-func-to-llvm --finalize-memref-to-llvm --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --convert-func-to-llvm --finalize-memref-to-llvm --split-input-file --verify-diagnostics %s

// ERR: func-to-llvm-errors.mlir:[[# @LINE + 3]]:1: error: Contains llvm.linkage attribute not of type LLVM::LinkageAttr
// CHECK: func.func private @bad(i32) attributes {llvm.linkage = 3 : i64}
// expected-error @+1 {{Contains llvm.linkage attribute not of type LLVM::LinkageAttr}}
func.func private @bad(i32) attributes {llvm.linkage = 3 : i64}

// -----

// expected-error @+1 {{C interface for variadic functions is not supported yet.}}
func.func @variadic(%a: i32) attributes {func.varargs = true, llvm.emit_c_interface} {
  return
}

// -----

// expected-error @unknown {{conversion of memref memory space "fast" to integer address space failed. Consider adding memory space conversions.}}
func.func @named_space(%m: memref<4xi32, "fast">, %i: index) -> i32 {
  %0 = memref.load %m[%i] : memref<4xi32, "fast">
  %1 = memref.load %m[%i] : memref<4xi32, "fast">
  %2 = arith.addi %0, %1 : i32
  return %2 : i32
}
