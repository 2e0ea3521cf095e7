// `llvm.intr.memcpy.inline` and `llvm.intr.memset.inline` (generic form
// only, as in MLIR; the length a constant attribute): printed as
// mlir-opt-22 prints them, translated to LLVM's intrinsics, run in lli-22.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: silica translate --to-llvmir %s | FileCheck %s
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: lli-22 %t.ll; test $? -eq 14

// CHECK: call void @llvm.memset.inline.p0.i64(ptr %{{.*}}, i8 7, i64 4, i1 false)
// CHECK: call void @llvm.memcpy.inline.p0.p0.i32(ptr %{{.*}}, ptr %{{.*}}, i32 4, i1 true)
// CHECK: declare void @llvm.memcpy.inline.p0.p0.i32(ptr, ptr, i32, i1)
// CHECK: declare void @llvm.memset.inline.p0.i64(ptr, i8, i64, i1)
llvm.func @main() -> i32 {
  %one = llvm.mlir.constant(1 : i64) : i64
  %seven = llvm.mlir.constant(7 : i8) : i8
  %a = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %b = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  "llvm.intr.memset.inline"(%a, %seven) <{isVolatile = false, len = 4 : i64}> : (!llvm.ptr, i8) -> ()
  "llvm.intr.memcpy.inline"(%b, %a) <{isVolatile = true, len = 4 : i32}> : (!llvm.ptr, !llvm.ptr) -> ()
  %v = llvm.load %b : !llvm.ptr -> i8
  %w = llvm.add %v, %v : i8
  %r = llvm.zext %w : i8 to i32
  llvm.return %r : i32
}
