// Identified structs translate by name, with one `%name = type ...`
// definition each (opaque, packed, nested, names that need quotes); the
// type definitions and signatures are mlir-translate-22's, and the
// program runs in lli-22.
// RUN: silica translate --to-llvmir %s -o %t.ours
// RUN: mlir-translate-22 --mlir-to-llvmir %s -o %t.ref
// RUN: llvm-as-22 %t.ours -o - | llvm-dis-22 | grep -E '^(%|define|declare|@)' | sed -E 's/%[0-9a-z.]+\)/%)/g' > %t.ours.lines
// RUN: llvm-as-22 %t.ref -o - | llvm-dis-22 | grep -E '^(%|define|declare|@)' | sed -E 's/%[0-9a-z.]+\)/%)/g' > %t.ref.lines
// RUN: diff %t.ours.lines %t.ref.lines
// RUN: FileCheck %s < %t.ours
// RUN: lli-22 %t.ours; test $? -eq 42

// CHECK-DAG: %pair = type { i32, %inner }
// CHECK-DAG: %inner = type <{ i8, i64 }>
// CHECK-DAG: %handle = type opaque
// CHECK-DAG: %"with space" = type { ptr }
llvm.mlir.global internal @g() : !llvm.struct<"pair", (i32, struct<"inner", packed (i8, i64)>)> {
  %0 = llvm.mlir.zero : !llvm.struct<"pair", (i32, struct<"inner", packed (i8, i64)>)>
  %1 = llvm.mlir.constant(40 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<"pair", (i32, struct<"inner", packed (i8, i64)>)>
  llvm.return %2 : !llvm.struct<"pair", (i32, struct<"inner", packed (i8, i64)>)>
}

llvm.func @opaque_user(!llvm.ptr) -> !llvm.struct<"with space", (ptr)>
llvm.func @handle_of() -> !llvm.struct<"handle", opaque>

llvm.func @main() -> i32 {
  %g = llvm.mlir.addressof @g : !llvm.ptr
  %first = llvm.getelementptr %g[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"pair", (i32, struct<"inner", packed (i8, i64)>)>
  %x = llvm.load %first : !llvm.ptr -> i32
  %two = llvm.mlir.constant(2 : i64) : i64
  %wide = llvm.getelementptr %g[0, 1, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"pair", (i32, struct<"inner", packed (i8, i64)>)>
  llvm.store %two, %wide : i64, !llvm.ptr
  %y = llvm.load %wide : !llvm.ptr -> i64
  %y32 = llvm.trunc %y : i64 to i32
  %sum = llvm.add %x, %y32 : i32
  llvm.return %sum : i32
}
