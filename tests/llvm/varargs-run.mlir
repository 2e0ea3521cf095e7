// A variadic function reads its arguments with llvm.intr.vastart,
// llvm.va_arg, llvm.intr.vacopy and llvm.intr.vaend: the syntax is
// mlir-opt-22's, the LLVM IR mlir-translate-22's, and the program sums
// 3 + 10 + 20 + 12 (and the copy's first argument again) in lli-22.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: lli-22 %t.ll; test $? -eq 52
// RUN: mlir-translate-22 --mlir-to-llvmir %s -o %t.ref.ll
// RUN: lli-22 %t.ref.ll; test $? -eq 52

// CHECK: define i32 @sum(i32 %{{.*}}, ...)
// CHECK: call void @llvm.va_start.p0(ptr %[[LIST:.*]])
// CHECK: call void @llvm.va_copy.p0(ptr %[[COPY:.*]], ptr %[[LIST]])
// CHECK: va_arg ptr %[[LIST]], i32
// CHECK: call void @llvm.va_end.p0(ptr %[[LIST]])
llvm.func @sum(%n: i32, ...) -> i32 {
  %one = llvm.mlir.constant(1 : i32) : i32
  %zero = llvm.mlir.constant(0 : i32) : i32
  // The x86-64 va_list: two offsets and two pointers.
  %list = llvm.alloca %one x !llvm.struct<"va_list", (i32, i32, ptr, ptr)> : (i32) -> !llvm.ptr
  %copy = llvm.alloca %one x !llvm.struct<"va_list", (i32, i32, ptr, ptr)> : (i32) -> !llvm.ptr
  llvm.intr.vastart %list : !llvm.ptr
  llvm.intr.vacopy %list to %copy : !llvm.ptr, !llvm.ptr
  llvm.br ^loop(%zero, %zero : i32, i32)
^loop(%i: i32, %acc: i32):
  %more = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %more, ^body, ^done
^body:
  %x = llvm.va_arg %list : (!llvm.ptr) -> i32
  %next_acc = llvm.add %acc, %x : i32
  %next_i = llvm.add %i, %one : i32
  llvm.br ^loop(%next_i, %next_acc : i32, i32)
^done:
  %first = llvm.va_arg %copy : (!llvm.ptr) -> i32
  llvm.intr.vaend %copy : !llvm.ptr
  llvm.intr.vaend %list : !llvm.ptr
  %total = llvm.add %acc, %first : i32
  llvm.return %total : i32
}

llvm.func @main() -> i32 {
  %three = llvm.mlir.constant(3 : i32) : i32
  %a = llvm.mlir.constant(10 : i32) : i32
  %b = llvm.mlir.constant(20 : i32) : i32
  %c = llvm.mlir.constant(12 : i32) : i32
  %s = llvm.call @sum(%three, %a, %b, %c) vararg(!llvm.func<i32 (i32, ...)>) : (i32, i32, i32, i32) -> i32
  llvm.return %s : i32
}
