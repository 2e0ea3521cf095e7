// convert-func-to-llvm as mlir-opt-22, with and without the bare-pointer
// calling convention: function values (func.constant, call_indirect),
// variadic functions, llvm.linkage and llvm.readnone.
// RUN: diff <(silica opt --convert-func-to-llvm --reconcile-unrealized-casts %s) <(mlir-opt-22 --convert-func-to-llvm --reconcile-unrealized-casts %s)
// RUN: diff <(silica opt --convert-func-to-llvm=use-bare-ptr-memref-call-conv=1 --reconcile-unrealized-casts %s) <(mlir-opt-22 --convert-func-to-llvm=use-bare-ptr-memref-call-conv=1 --reconcile-unrealized-casts %s)
// RUN: silica opt --convert-func-to-llvm %s | FileCheck %s
func.func @k(%m: memref<4x8xf32>, %i: index) -> memref<4x8xf32> {
  %c = arith.constant 0 : index
  %v = memref.load %m[%i, %c] : memref<4x8xf32>
  return %m : memref<4x8xf32>
}
func.func @c(%m: memref<4x8xf32>) {
  %c0 = arith.constant 1 : index
  %r = call @k(%m, %c0) : (memref<4x8xf32>, index) -> memref<4x8xf32>
  return
}
func.func private @decl(i32, f64) -> (i32, f64)
func.func @multi(%x: i32, %y: f64) -> (i32, f64) {
  %r:2 = call @decl(%x, %y) : (i32, f64) -> (i32, f64)
  return %r#0, %r#1 : i32, f64
}
func.func private @h(memref<*xf32>)
func.func @pass(%m: memref<*xf32>) {
  call @h(%m) : (memref<*xf32>) -> ()
  return
}

// CHECK: llvm.func extern_weak @weak(i32)
// CHECK: llvm.func @pure(i32) attributes {memory_effects = #llvm.memory_effects<other = none
// CHECK-LABEL: llvm.func @indirect
// CHECK: %[[F:.*]] = llvm.mlir.addressof @weak : !llvm.ptr
// CHECK: llvm.call %[[F]](%{{.*}}) : !llvm.ptr, (i32) -> ()
// CHECK: llvm.call %{{.*}}(%{{.*}}) : !llvm.ptr, (f32) -> i32
// CHECK: llvm.func @variadic(%{{.*}}: i32, ...)
func.func private @weak(i32) attributes {llvm.linkage = #llvm.linkage<extern_weak>}
func.func private @pure(i32) attributes {llvm.readnone}
func.func @indirect(%x: i32, %g: (f32) -> i32, %y: f32) -> i32 {
  %f = func.constant @weak : (i32) -> ()
  func.call_indirect %f(%x) : (i32) -> ()
  %r = func.call_indirect %g(%y) : (f32) -> i32
  return %r : i32
}
func.func @variadic(%x: i32) attributes {func.varargs = true} {
  return
}
