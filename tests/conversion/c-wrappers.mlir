// C wrappers (`llvm.emit_c_interface`): for functions with a body, a
// `_mlir_ciface_` function taking memrefs by pointer (a memref or several
// results stored through a first pointer argument); for external
// functions, a `_mlir_ciface_` declaration and a private body packing the
// arguments into descriptors on the stack. Custom and generic output
// byte-identical to mlir-opt-22's.
// RUN: silica opt --convert-func-to-llvm --reconcile-unrealized-casts %s > %t.ours
// RUN: mlir-opt-22 --convert-func-to-llvm --reconcile-unrealized-casts %s > %t.ref
// RUN: diff %t.ours %t.ref
// RUN: silica opt --convert-func-to-llvm --reconcile-unrealized-casts --mlir-print-op-generic %s > %t.ours
// RUN: mlir-opt-22 --convert-func-to-llvm --reconcile-unrealized-casts --mlir-print-op-generic %s > %t.ref
// RUN: diff %t.ours %t.ref
// RUN: silica opt --convert-func-to-llvm --reconcile-unrealized-casts %s | FileCheck %s
// RUN: silica opt --convert-arith-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts %s | silica translate --to-llvmir | llvm-as-22 -o /dev/null

// CHECK-LABEL: llvm.func @_mlir_ciface_id(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32)
// CHECK: llvm.store %{{.*}}, %arg0
// CHECK-LABEL: llvm.func private @ext(
// CHECK: llvm.call @_mlir_ciface_ext(%{{.*}}, %{{.*}}, %arg5) : (!llvm.ptr, !llvm.ptr, i32) -> ()
// CHECK: llvm.func @_mlir_ciface_ext(!llvm.ptr, !llvm.ptr, i32) attributes {llvm.emit_c_interface, sym_visibility = "private"}
func.func @id(%m: memref<?xf32>, %x: i32) -> memref<?xf32> attributes {llvm.emit_c_interface} {
  return %m : memref<?xf32>
}
func.func @two(%x: i32) -> (i32, i64) attributes {llvm.emit_c_interface} {
  %0 = arith.extsi %x : i32 to i64
  return %x, %0 : i32, i64
}
func.func private @ext(%m: memref<4xf32>, %x: i32) -> memref<4xf32> attributes {llvm.emit_c_interface}
func.func private @ext2(%m: memref<4xf32>, %x: i32) -> i32 attributes {llvm.emit_c_interface}
func.func private @ext3(%x: i32) -> i32 attributes {llvm.emit_c_interface}
// Argument and result attributes: kept on arguments that stay one
// parameter (and on the wrapper's, where a memref is one pointer),
// dropped from expanded memrefs and from several results.
func.func @attrs(%m: memref<2xf32> {my.mem = 1}, %x: f32 {my.x}) -> (f32 {my.r = 2}) attributes {llvm.emit_c_interface} {
  return %x : f32
}
func.func private @ext_attrs(%m: memref<2xf32> {my.mem = 1}, %x: f32 {my.x}) -> (memref<2xf32> {my.r}) attributes {llvm.emit_c_interface}
func.func @many(%x: f32 {my.x}) -> (f32 {my.a}, f32 {my.b}) {
  return %x, %x : f32, f32
}
