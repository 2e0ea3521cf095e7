// Memref lowering as mlir-opt-22: descriptors, malloc/free, aligned
// allocation, calls with expanded descriptors, C-interface wrappers,
// globals.
// RUN: diff <(silica opt --finalize-memref-to-llvm %s) <(mlir-opt-22 --finalize-memref-to-llvm %s)
// RUN: diff <(silica opt --finalize-memref-to-llvm=use-aligned-alloc=1 %s) <(mlir-opt-22 --finalize-memref-to-llvm=use-aligned-alloc=1 %s)
// RUN: diff <(silica opt --convert-to-llvm --reconcile-unrealized-casts %s) <(mlir-opt-22 --convert-to-llvm --reconcile-unrealized-casts %s)
func.func private @ext(memref<4xf32>)
func.func @k(%m: memref<?x4xf32>, %i: index) -> f32 attributes {llvm.emit_c_interface} {
  %c = arith.constant 0 : index
  %v = memref.load %m[%i, %c] : memref<?x4xf32>
  %a = memref.alloc() : memref<4xf32>
  call @ext(%a) : (memref<4xf32>) -> ()
  memref.dealloc %a : memref<4xf32>
  return %v : f32
}
memref.global "private" constant @cst : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @g() -> memref<4xf32> {
  %0 = memref.get_global @cst : memref<4xf32>
  return %0 : memref<4xf32>
}
func.func @aligned(%a: memref<?xf32>) {
  memref.dealloc %a : memref<?xf32>
  %b = memref.alloc() {alignment = 32} : memref<4xf32>
  %c = memref.alloca() {alignment = 64} : memref<2x3xf64>
  %c0 = arith.constant 0 : index
  %d = memref.dim %a, %c0 : memref<?xf32>
  return
}
func.func @copy(%a: memref<4x?xf32>, %b: memref<4x?xf32>) {
  memref.copy %a, %b : memref<4x?xf32> to memref<4x?xf32>
  return
}
func.func @r(%m: memref<2x3xf32>, %o: index, %s: index) -> memref<6x1xf32, strided<[?, 1], offset: ?>> {
  %r = memref.reinterpret_cast %m to offset: [%o], sizes: [6, 1], strides: [%s, 1] : memref<2x3xf32> to memref<6x1xf32, strided<[?, 1], offset: ?>>
  return %r : memref<6x1xf32, strided<[?, 1], offset: ?>>
}
func.func @d(%m: memref<3x?xf32>, %i: index) -> index {
  %d = memref.dim %m, %i : memref<3x?xf32>
  return %d : index
}
func.func @memref_prefetch(%A : memref<?x?xf32>, %i : index, %j : index) {
  memref.prefetch %A[%i, %j], write, locality<3>, data : memref<?x?xf32>
  memref.prefetch %A[%i, %j], read, locality<0>, instr : memref<?x?xf32>
  return
}
