// COMDATs: llvm.comdat / llvm.comdat_selector and the comdat(...) clause
// of functions and globals print as mlir-opt-22 prints them and translate
// as mlir-translate-22 writes them (llvm-as-22 accepts the result);
// --llvm-add-comdats gives linkonce functions a comdat each.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: diff <(silica opt --llvm-add-comdats %s) <(mlir-opt-22 --llvm-add-comdats %s)
// RUN: silica opt --llvm-add-comdats %s | FileCheck %s --check-prefix=ADD

// IR-DAG: $any = comdat any
// IR-DAG: $exactmatch = comdat exactmatch
// IR-DAG: $largest = comdat largest
// IR-DAG: $nodeduplicate = comdat nodeduplicate
// IR-DAG: $samesize = comdat samesize
// IR-DAG: @any = internal constant i64 1, comdat
// IR-DAG: @exact_global = internal constant i64 1, comdat($exactmatch)
// IR-DAG: @largest_global = internal global i64 1, comdat($largest), align 8
// IR-DAG: define void @nodeduplicate() comdat {
// IR-DAG: define dso_local void @samesize_func() comdat($samesize) {
// ADD: llvm.comdat @__llvm_comdat {
// ADD-NEXT: llvm.comdat_selector @odr any
// ADD-NEXT: llvm.comdat_selector @once any
// ADD: llvm.func linkonce @once() comdat(@__llvm_comdat::@once)
// ADD: llvm.func linkonce_odr @odr() comdat(@__llvm_comdat::@odr)
llvm.comdat @__llvm_comdat {
  llvm.comdat_selector @any any
  llvm.comdat_selector @exactmatch exactmatch
  llvm.comdat_selector @largest largest
  llvm.comdat_selector @nodeduplicate nodeduplicate
  llvm.comdat_selector @samesize samesize
}

llvm.mlir.global internal constant @any(1 : i64) comdat(@__llvm_comdat::@any) : i64
llvm.mlir.global internal constant @exact_global(1 : i64) comdat(@__llvm_comdat::@exactmatch) : i64
llvm.mlir.global internal @largest_global(1 : i64) comdat(@__llvm_comdat::@largest) {alignment = 8 : i64} : i64
llvm.func @nodeduplicate() comdat(@__llvm_comdat::@nodeduplicate) {
  llvm.return
}
llvm.func @samesize_func() comdat(@__llvm_comdat::@samesize) attributes {dso_local} {
  llvm.return
}
llvm.func linkonce @once() {
  llvm.return
}
llvm.func linkonce_odr @odr() {
  llvm.return
}
