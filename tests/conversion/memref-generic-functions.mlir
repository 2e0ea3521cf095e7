// finalize-memref-to-llvm{use-generic-functions=1} allocates and frees
// through the MLIR runtime's generic functions (with or without
// use-aligned-alloc); the output is byte-identical to mlir-opt-22's.
// RUN: silica opt -p 'builtin.module(finalize-memref-to-llvm{use-generic-functions=1})' %s > %t.ours
// RUN: mlir-opt-22 -p 'builtin.module(finalize-memref-to-llvm{use-generic-functions=1})' %s > %t.ref
// RUN: diff %t.ref %t.ours
// RUN: silica opt -p 'builtin.module(finalize-memref-to-llvm{use-generic-functions=1 use-aligned-alloc=1})' %s > %t.ours2
// RUN: mlir-opt-22 -p 'builtin.module(finalize-memref-to-llvm{use-generic-functions=1 use-aligned-alloc=1})' %s > %t.ref2
// RUN: diff %t.ref2 %t.ours2
// RUN: FileCheck %s < %t.ours
// CHECK: llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// CHECK: llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK: llvm.call @_mlir_memref_to_llvm_free
func.func @roundtrip(%n: index) -> f32 {
  %m = memref.alloc(%n) : memref<?x4xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0, %c0] : memref<?x4xf32>
  memref.dealloc %m : memref<?x4xf32>
  return %v : f32
}
