// Affine canonicalization against mlir-opt-22: affine.apply composition
// and folding, symbol promotion, constant symbols, affine.min/max folding,
// deduplication and ordering, empty loops, load/store map composition.
// RUN: diff <(silica opt --canonicalize --allow-unregistered-dialect %s) <(mlir-opt-22 --canonicalize --allow-unregistered-dialect %s)
// RUN: silica opt --canonicalize --allow-unregistered-dialect %s | FileCheck %s

// CHECK-DAG: #[[COMPOSED:.*]] = affine_map<(d0, d1)[s0, s1] -> (d0 + d1 * 2 + s0 + s1 * 2)>
// CHECK-DAG: #[[MIN:.*]] = affine_map<()[s0] -> (7, s0 + 2)>
// CHECK-LABEL: func.func @compose
// CHECK: affine.apply #[[COMPOSED]](%arg3, %arg4)[%arg1, %arg0]
// CHECK-LABEL: func.func @fold
// CHECK: affine.min #[[MIN]]()[%arg0]
// CHECK-LABEL: func.func @loops
// CHECK-NOT: iter_args
func.func @compose(%n: index, %m: index, %p: index) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      %a = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%j)[%n]
      %b = affine.apply affine_map<(d0, d1)[s0] -> (d0 * 2 + d1 + s0)>(%a, %i)[%m]
      "test.use"(%b) : (index) -> ()
    }
  }
  return
}

func.func @fold(%n: index) -> (index, index, index, index) {
  %c3 = arith.constant 3 : index
  %a = affine.apply affine_map<(d0)[s0] -> (d0 * 4 + s0)>(%c3)[%c3]
  %b = affine.min affine_map<()[s0] -> (s0 + 2, 7, s0 + 2)>()[%n]
  %c = affine.max affine_map<() -> (1000, 512)>()
  %d = affine.apply affine_map<(d0) -> ((d0 + 1) * 2)>(%n)
  return %a, %b, %c, %d : index, index, index, index
}

func.func @loops(%m: memref<10xindex>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = affine.for %i = 0 to 10 iter_args(%s = %c0) -> (index) {
    affine.yield %s : index
  }
  affine.for %i = 0 to 10 {
    %x = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    %l = affine.load %m[%x] : memref<10xindex>
    affine.store %l, %m[%i] : memref<10xindex>
  }
  return %r : index
}
