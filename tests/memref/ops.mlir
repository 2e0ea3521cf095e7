// memref ops (allocation, access, dim/rank/cast/copy, globals) against
// mlir-opt-22, custom and generic, and back from generic.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: mlir-opt-22 --mlir-print-op-generic %s | silica opt | diff - <(mlir-opt-22 %s)

memref.global "private" constant @g : memref<2xf32> = dense<[1.0, 2.0]>
memref.global @h : memref<4xi32> = uninitialized
func.func @m(%n: index, %x: f32) {
  %a = memref.alloc(%n) : memref<?x4xf32>
  %b = memref.alloca() {alignment = 64 : i64} : memref<8xf32>
  %c = memref.load %a[%n, %n] : memref<?x4xf32>
  memref.store %x, %b[%n] : memref<8xf32>
  memref.store %c, %a[%n, %n] {nontemporal = true} : memref<?x4xf32>
  %d = memref.dim %a, %n : memref<?x4xf32>
  %e = memref.cast %a : memref<?x4xf32> to memref<?x?xf32>
  memref.copy %b, %b : memref<8xf32> to memref<8xf32>
  %g = memref.get_global @g : memref<2xf32>
  %r = memref.rank %a : memref<?x4xf32>
  memref.dealloc %a : memref<?x4xf32>
  return
}
