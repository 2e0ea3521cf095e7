// The LLVM dialect in bytecode: loop annotations in the LLVM dialect's
// encoding (their parts, which have none, as text), and an llvm.func in
// the generic form, whose defaulted properties (calling convention,
// linkage, visibility) are filled in as MLIR fills them. silica writes
// mlir-opt-22's bytes; each reads the other's.
// RUN: silica opt --emit-bytecode %s -o %t.silica.mlirbc
// RUN: mlir-opt-22 --emit-bytecode %s -o %t.mlir-opt.mlirbc
// RUN: cmp %t.silica.mlirbc %t.mlir-opt.mlirbc
// RUN: diff <(silica opt --mlir-print-debuginfo %t.mlir-opt.mlirbc) <(mlir-opt-22 --mlir-print-debuginfo %t.mlir-opt.mlirbc)
// RUN: diff <(silica opt --mlir-print-op-generic %t.mlir-opt.mlirbc) <(mlir-opt-22 --mlir-print-op-generic %t.mlir-opt.mlirbc)
// RUN: diff <(mlir-opt-22 --mlir-print-debuginfo %t.silica.mlirbc) <(mlir-opt-22 --mlir-print-debuginfo %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)

#followup = #llvm.loop_annotation<disableNonforced = true>
#unroll = #llvm.loop_unroll<disable = false, count = 4 : i32, followupAll = #followup>
#licm = #llvm.loop_licm<disable = true>
#group = #llvm.access_group<id = distinct[0]<>>
#loop = #llvm.loop_annotation<mustProgress = true, unroll = #unroll, licm = #licm,
  isVectorized = false, startLoc = loc(fused<#group>["a.c":1:2]), parallelAccesses = #group>

llvm.func @loop(%p: !llvm.ptr, %n: i64) {
  %0 = llvm.mlir.constant(0 : i64) : i64
  llvm.br ^bb1(%0 : i64)
^bb1(%i: i64):
  %v = llvm.load %p {access_groups = [#group]} : !llvm.ptr -> i32
  %next = llvm.add %i, %n : i64
  %c = llvm.icmp "slt" %next, %n : i64
  llvm.cond_br %c, ^bb1(%next : i64), ^bb2 {loop_annotation = #loop}
^bb2:
  llvm.br ^bb3 {loop_annotation = #followup}
^bb3:
  llvm.return
}

"llvm.func"() ({
}) {sym_name = "generic_decl", function_type = !llvm.func<i64 (i64)>} : () -> ()
