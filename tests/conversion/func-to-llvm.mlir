// convert-func-to-llvm as mlir-opt-22, with and without the bare-pointer
// calling convention.
// RUN: diff <(silica opt --convert-func-to-llvm --reconcile-unrealized-casts %s) <(mlir-opt-22 --convert-func-to-llvm --reconcile-unrealized-casts %s)
// RUN: diff <(silica opt --convert-func-to-llvm=use-bare-ptr-memref-call-conv=1 --reconcile-unrealized-casts %s) <(mlir-opt-22 --convert-func-to-llvm=use-bare-ptr-memref-call-conv=1 --reconcile-unrealized-casts %s)
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
