// llvm.module_flags: printed as mlir-opt-22 prints it (flag values with
// their types; module-flags-summary.mlir checks a profile summary),
// translated to !llvm.module.flags metadata (integers as i32,
// strings as metadata strings) that llvm-as-22 accepts.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: silica opt %s | FileCheck %s
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.ll

// CHECK: llvm.module_flags [#llvm.mlir.module_flag<error, "wchar_size", 4 : i32>, #llvm.mlir.module_flag<min, "PIC Level", 2 : i32>, #llvm.mlir.module_flag<override, "probe-stack", "inline-asm">, #llvm.mlir.module_flag<warning, "w\\q", 7 : i64>]
// IR: !llvm.module.flags = !{!0, !1, !2, !3}
// IR: !0 = !{i32 1, !"wchar_size", i32 4}
// IR: !1 = !{i32 8, !"PIC Level", i32 2}
// IR: !2 = !{i32 4, !"probe-stack", !"inline-asm"}
// IR: !3 = !{i32 2, !"w\\q", i32 7}
module {
  llvm.module_flags [#llvm.mlir.module_flag<error, "wchar_size", 4 : i32>,
                     #llvm.mlir.module_flag<min, "PIC Level", 2 : i32>,
                     #llvm.mlir.module_flag<override, "probe-stack", "inline-asm">,
                     #llvm.mlir.module_flag<warning, "w\\q", 7>]
  llvm.func @f() {
    llvm.return
  }
}
