// affine ops (for with constant/symbol/min-max bounds, step, iter_args; if
// with integer sets; load/store over SSA subscripts; apply/min/max)
// against mlir-opt-22, custom and generic (aliases of properties included),
// and back from generic.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: mlir-opt-22 --mlir-print-op-generic %s | silica opt | diff - <(mlir-opt-22 %s)

#map = affine_map<(d0) -> (d0 + 4)>
#set = affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 >= 0)>
func.func @k(%A: memref<16x16xf32>, %n: index, %x: f32) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to %n step 2 {
      %v = affine.load %A[%i + 1, %j * 2 - 3] : memref<16x16xf32>
      affine.store %v, %A[%j, symbol(%n)] : memref<16x16xf32>
      %a = affine.apply #map(%i)
      %m = affine.min affine_map<(d0)[s0] -> (d0, s0)>(%i)[%n]
      affine.if #set(%i)[%n] {
        affine.store %x, %A[%i, %i] : memref<16x16xf32>
      } else {
        affine.store %x, %A[0, 0] : memref<16x16xf32>
      }
    }
    affine.for %k = max affine_map<(d0) -> (d0, 2)>(%i) to min affine_map<(d0)[s0] -> (s0, d0 + 8)>(%i)[%n] {
    }
  }
  %r = affine.for %i = 0 to 10 iter_args(%s = %x) -> (f32) {
    %t = arith.addf %s, %s : f32
    affine.yield %t : f32
  }
  return
}
func.func @if_results(%i: index, %x: f32, %y: i32) -> (f32, i32) {
  %0 = affine.if affine_set<(d0) : (d0 - 2 >= 0)>(%i) -> f32 {
    affine.yield %x : f32
  } else {
    affine.yield %x : f32
  }
  %1:2 = affine.if affine_set<(d0) : (d0 >= 0)>(%i) -> (f32, i32) {
    affine.yield %0, %y : f32, i32
  } else {
    affine.yield %x, %y : f32, i32
  }
  return %1#0, %1#1 : f32, i32
}
func.func @d(%i: index, %a: index, %b: index) {
  %0:2 = affine.delinearize_index %i into (%a, %b) : index, index
  %1:3 = affine.delinearize_index %i into (2, %a, 4) : index, index, index
  %2 = affine.linearize_index [%0#0, %0#1] by (%a, %b) : index
  %3 = affine.linearize_index disjoint [%a, %b] by (3, 5) : index
  %4:2 = affine.delinearize_index %i into (8) : index, index
  return
}
func.func @dma(%A: memref<256xf32>, %B: memref<256xf32, 1>, %tag: memref<1xi32>, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  memref.dma_start %A[%i], %B[%c0], %n, %tag[%c0] : memref<256xf32>, memref<256xf32, 1>, memref<1xi32>
  memref.dma_wait %tag[%c0], %n : memref<1xi32>
  affine.dma_start %A[%i + 1], %B[%i], %tag[0], %n : memref<256xf32>, memref<256xf32, 1>, memref<1xi32>
  affine.dma_wait %tag[0], %n : memref<1xi32>
  memref.dma_start %A[%i], %B[%c0], %n, %tag[%c0], %c0, %n : memref<256xf32>, memref<256xf32, 1>, memref<1xi32>
  affine.dma_start %A[%i], %B[%i], %tag[%i], %n, %c0, %n : memref<256xf32>, memref<256xf32, 1>, memref<1xi32>
  return
}
