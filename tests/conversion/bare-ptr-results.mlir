// The bare-pointer convention: memref results are pointers in the
// memref's address space (several results a struct of them), argument
// attributes stay on the pointers. Output byte-identical to mlir-opt-22's.
// RUN: diff <(silica opt '--pass-pipeline=builtin.module(func.func(convert-arith-to-llvm),convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},convert-cf-to-llvm,reconcile-unrealized-casts)' %s) <(mlir-opt-22 '--pass-pipeline=builtin.module(func.func(convert-arith-to-llvm),convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},convert-cf-to-llvm,reconcile-unrealized-casts)' %s)
// RUN: silica opt '--pass-pipeline=builtin.module(func.func(convert-arith-to-llvm),convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},convert-cf-to-llvm,reconcile-unrealized-casts)' %s | FileCheck %s

// CHECK: llvm.func @swap(%arg0: !llvm.ptr<3> {llvm.noalias}, %arg1: !llvm.ptr<3>) -> !llvm.struct<(ptr<3>, ptr<3>)>
func.func @swap(%a: memref<8xi32, 3> {llvm.noalias}, %b: memref<8xi32, 3>) -> (memref<8xi32, 3>, memref<8xi32, 3>) {
  return %b, %a : memref<8xi32, 3>, memref<8xi32, 3>
}
// CHECK: llvm.func @one(%arg0: !llvm.ptr<1>) -> !llvm.ptr<1>
func.func @one(%a: memref<2xf32, 1>) -> memref<2xf32, 1> {
  return %a : memref<2xf32, 1>
}
