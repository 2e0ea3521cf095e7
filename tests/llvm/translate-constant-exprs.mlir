// Global initializers with the integer operations LLVM keeps as constant
// expressions (add, sub, xor, trunc), as mlir-translate-22 writes them
// (overflow flags dropped); llvm-as-22 accepts the IR.
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: FileCheck %s < %t.ll

llvm.func @target()

// CHECK: @relative = dso_local constant i32 trunc (i64 sub (i64 ptrtoint (ptr dso_local_equivalent @target to i64), i64 ptrtoint (ptr @relative to i64)) to i32)
llvm.mlir.global external constant @relative() {dso_local} : i32 {
  %0 = llvm.mlir.addressof @relative : !llvm.ptr
  %1 = llvm.ptrtoint %0 : !llvm.ptr to i64
  %2 = llvm.dso_local_equivalent @target : !llvm.ptr
  %3 = llvm.ptrtoint %2 : !llvm.ptr to i64
  %4 = llvm.sub %3, %1 : i64
  %5 = llvm.trunc %4 : i64 to i32
  llvm.return %5 : i32
}

// CHECK: @offset = global i64 add (i64 ptrtoint (ptr @relative to i64), i64 8)
llvm.mlir.global external @offset() : i64 {
  %0 = llvm.mlir.addressof @relative : !llvm.ptr
  %1 = llvm.ptrtoint %0 : !llvm.ptr to i64
  %2 = llvm.mlir.constant(8 : i64) : i64
  %3 = llvm.add %1, %2 overflow<nsw, nuw> : i64
  llvm.return %3 : i64
}

// CHECK: @flipped = global i64 xor (i64 ptrtoint (ptr @relative to i64), i64 -1)
llvm.mlir.global external @flipped() : i64 {
  %0 = llvm.mlir.addressof @relative : !llvm.ptr
  %1 = llvm.ptrtoint %0 : !llvm.ptr to i64
  %2 = llvm.mlir.constant(-1 : i64) : i64
  %3 = llvm.xor %1, %2 : i64
  llvm.return %3 : i64
}
