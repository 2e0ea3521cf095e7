// `llvm.mlir.global_ctors`/`global_dtors`: printed as mlir-opt-22 prints
// them, checked as MLIR checks them, translated as mlir-translate-22
// translates them; lli-22 runs the constructor before `main` (which
// returns the 42 it stored).
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: diff <(silica translate --to-llvmir %s | grep global_) <(mlir-translate-22 --mlir-to-llvmir %s | grep global_)
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: lli-22 %t.ll; test $? -eq 42
llvm.mlir.global_ctors ctors = [@init], priorities = [0 : i32], data = [#llvm.zero]
llvm.mlir.global_dtors dtors = [], priorities = [], data = []
llvm.mlir.global internal @g(0 : i32) : i32
llvm.func @init() {
  %c = llvm.mlir.constant(42 : i32) : i32
  %p = llvm.mlir.addressof @g : !llvm.ptr
  llvm.store %c, %p : i32, !llvm.ptr
  llvm.return
}
llvm.func @main() -> i32 {
  %p = llvm.mlir.addressof @g : !llvm.ptr
  %v = llvm.load %p : !llvm.ptr -> i32
  llvm.return %v : i32
}
