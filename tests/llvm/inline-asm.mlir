// llvm.inline_asm: printed as mlir-opt-22 prints it (custom and generic
// forms; `asm_dialect` read as a keyword or a string), translated as
// mlir-translate-22 writes it (side effects, stack alignment, the Intel
// dialect, tail calls, elementtype operands, escaped strings), and
// erased when unused and free of side effects (inline-asm-run.mlir runs
// one in lli-22).
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: silica opt --canonicalize %s | FileCheck %s --check-prefix=DCE

// IR-LABEL: define i8 @forms
// IR: call i8 asm inteldialect "foo $0", "=r,r,r"(i32 %{{.*}}, i32 %{{.*}})
// IR: tail call void asm sideeffect "", "*m,~{memory}"(ptr elementtype(i32) %{{.*}})
// IR: call i8 asm alignstack "b\22a\\r", "=r,r"(i32 %{{.*}})
// IR: call void asm sideeffect "nop", ""()
// IR: call { i8, i8 } asm "foo", "=r,=r,r"(i32 %{{.*}})
// DCE-LABEL: llvm.func @forms
// DCE-NOT: "foo", "=r,=r,r"
// DCE: llvm.inline_asm has_side_effects "nop"
llvm.func @forms(%arg0: i32, %arg1: !llvm.ptr) -> i8 {
  %0 = llvm.inline_asm asm_dialect = "intel" "foo $0", "=r,r,r" %arg0, %arg0 : (i32, i32) -> i8
  %1 = llvm.inline_asm has_side_effects tail_call_kind = <tail> operand_attrs = [{elementtype = i32}] "", "*m,~{memory}" %arg1 : (!llvm.ptr) -> !llvm.void
  %2 = llvm.inline_asm is_align_stack asm_dialect = att "b\"a\\r", "=r,r" %arg0 : (i32) -> i8
  llvm.inline_asm has_side_effects "nop", "" : () -> ()
  %3 = llvm.inline_asm "foo", "=r,=r,r" %arg0 : (i32) -> !llvm.struct<(i8, i8)>
  llvm.return %0 : i8
}
