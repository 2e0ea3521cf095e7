// llvm.dso_local_equivalent: a function's address that resolves within
// the linkage unit, in functions and in global initializers. Printing
// matches mlir-opt-22; the translation is llvm-as-22 valid and has the
// constants mlir-translate-22 writes (lli-22's JIT cannot relocate them,
// so it is not run); an extern_weak target is an error.
// RUN: silica opt %s > %t.ours
// RUN: mlir-opt-22 %s > %t.ref
// RUN: diff %t.ref %t.ours
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: mlir-translate-22 --mlir-to-llvmir %s | FileCheck %s
// RUN: not silica opt %S/dso-local-equivalent-errors.txt 2>&1 | FileCheck %S/dso-local-equivalent-errors.txt --check-prefix=ERR

// CHECK: @table = global ptr dso_local_equivalent @three
// CHECK: store ptr dso_local_equivalent @three
llvm.func @three() -> i32 {
  %0 = llvm.mlir.constant(3 : i32) : i32
  llvm.return %0 : i32
}
llvm.mlir.global external @table() {addr_space = 0 : i32} : !llvm.ptr {
  %0 = llvm.dso_local_equivalent @three : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
llvm.func @main() -> i32 {
  %one = llvm.mlir.constant(1 : i64) : i64
  %slot = llvm.alloca %one x !llvm.ptr : (i64) -> !llvm.ptr
  %f = llvm.dso_local_equivalent @three : !llvm.ptr
  llvm.store %f, %slot : !llvm.ptr, !llvm.ptr
  %g = llvm.load %slot : !llvm.ptr -> !llvm.ptr
  %r = llvm.call %g() : !llvm.ptr, () -> i32
  llvm.return %r : i32
}
