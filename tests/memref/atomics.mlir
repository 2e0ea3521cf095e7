// memref atomics, transpose and distinct_objects against mlir-opt-22,
// custom and generic, and back from generic.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: mlir-opt-22 --mlir-print-op-generic %s | silica opt | diff - <(mlir-opt-22 %s)

func.func @atomics(%m: memref<4x4xi32>, %f: memref<8xf64>, %i: index, %v: i32, %x: f64) -> (i32, f64) {
  %a = memref.atomic_rmw maxs %v, %m[%i, %i] : (i32, memref<4x4xi32>) -> i32
  %b = memref.atomic_rmw assign %x, %f[%i] {tag} : (f64, memref<8xf64>) -> f64
  %c = memref.generic_atomic_rmw %f[%i] : memref<8xf64> {
  ^bb0(%old: f64):
    %twice = arith.addf %old, %old : f64
    memref.atomic_yield %twice : f64
  }
  return %a, %c : i32, f64
}

func.func @views(%m: memref<?x?xf32>, %n: memref<?xi8>) -> memref<?x?xf32, strided<[1, ?]>> {
  %t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<?x?xf32> to memref<?x?xf32, strided<[1, ?]>>
  %u = memref.transpose %m (d0, d1) -> (d1, d0) : memref<?x?xf32> to memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>>
  %p, %q = memref.distinct_objects %m, %n : memref<?x?xf32>, memref<?xi8>
  return %t : memref<?x?xf32, strided<[1, ?]>>
}
