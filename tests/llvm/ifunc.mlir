// `llvm.mlir.ifunc`: printed as mlir-opt-22 prints it (custom and
// generic), translated as mlir-translate-22 translates it, and compiled by
// llc-22 (lli-22 cannot link ifuncs).
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: diff <(silica translate --to-llvmir %s | grep ifunc) <(mlir-translate-22 --mlir-to-llvmir %s | grep ifunc)
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: llc-22 %t.ll -o /dev/null
llvm.func @answer() -> i32 {
  %c = llvm.mlir.constant(42 : i32) : i32
  llvm.return %c : i32
}
llvm.func @resolver() -> !llvm.ptr {
  %0 = llvm.mlir.addressof @answer : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
llvm.mlir.ifunc external @pick : !llvm.func<i32 ()>, !llvm.ptr @resolver {dso_local}
llvm.mlir.ifunc linkonce_odr hidden @other : !llvm.func<i32 ()>, !llvm.ptr @resolver
llvm.func @main() -> i32 {
  %r = llvm.call @pick() : () -> i32
  llvm.return %r : i32
}
