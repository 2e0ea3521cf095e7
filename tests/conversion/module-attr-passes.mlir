// --llvm-request-c-wrappers marks every function for a C wrapper, which
// convert-func-to-llvm then writes; --set-llvm-module-datalayout gives
// the module its data layout string (output as mlir-opt-22's).
// RUN: silica opt --llvm-request-c-wrappers %s | FileCheck %s --check-prefix=MARK
// RUN: silica opt --llvm-request-c-wrappers --convert-func-to-llvm %s | FileCheck %s --check-prefix=WRAP
// RUN: silica opt --set-llvm-module-datalayout %s | FileCheck %s --check-prefix=EMPTY
// RUN: silica opt "--set-llvm-module-datalayout=data-layout=p:32:32:32" %s | FileCheck %s --check-prefix=P32
// RUN: silica opt --llvm-request-c-wrappers --convert-func-to-llvm %s > %t.ours
// RUN: mlir-opt-22 --llvm-request-c-wrappers --convert-func-to-llvm %s > %t.ref
// RUN: diff %t.ours %t.ref

// MARK: func.func @add(%arg0: i32, %arg1: i32) -> i32 attributes {llvm.emit_c_interface} {
// WRAP: llvm.func @_mlir_ciface_add(%arg0: i32, %arg1: i32) -> i32 attributes {llvm.emit_c_interface} {
// EMPTY: module attributes {llvm.data_layout = ""} {
// P32: module attributes {llvm.data_layout = "p:32:32:32"} {
func.func @add(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}
