// LLVM attributes silica keeps as their text (TBAA, alias scopes): the
// aliases the text names are written out where it is parsed, so that the
// text reads alone, as bytecode's text entries must (mlir-opt-22 reads
// silica's bytes as it reads this file).
// RUN: silica opt --emit-bytecode %s -o %t.silica.mlirbc
// RUN: diff <(mlir-opt-22 --mlir-print-debuginfo %t.silica.mlirbc) <(mlir-opt-22 --mlir-print-debuginfo %s)
// RUN: diff <(silica opt --mlir-print-debuginfo %t.silica.mlirbc) <(silica opt --mlir-print-debuginfo %s)
// RUN: silica opt %s | FileCheck %s
// CHECK: alias_scopes = [#llvm.alias_scope<id = distinct[1]<>, domain = #llvm.alias_scope_domain<id = distinct[0]<>, description = "d">>]
// CHECK-SAME: tbaa = [#llvm.tbaa_tag<base_type = #llvm.tbaa_type_desc<id = "int", members = {<#llvm.tbaa_root<id = "Simple C/C++ TBAA">, 0>}>,

#root = #llvm.tbaa_root<id = "Simple C/C++ TBAA">
#int = #llvm.tbaa_type_desc<id = "int", members = {<#root, 0>}>
#tag = #llvm.tbaa_tag<base_type = #int, access_type = #int, offset = 0>
#domain = #llvm.alias_scope_domain<id = distinct[0]<>, description = "d">
#scope = #llvm.alias_scope<id = distinct[1]<>, domain = #domain>
llvm.func @f(%p: !llvm.ptr) -> i32 {
  %v = llvm.load %p {tbaa = [#tag], alias_scopes = [#scope]} : !llvm.ptr -> i32
  llvm.return %v : i32
}
