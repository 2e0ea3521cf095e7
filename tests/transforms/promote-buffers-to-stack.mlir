// promote-buffers-to-stack against mlir-opt-22: small static allocations
// (the 1024-byte default and a lower limit), dynamic ones sized by
// memref.rank (rank limit 1 by default), allocations with a dealloc,
// allocations returned directly, through views, selects, branches and
// loops, and allocations inside loop bodies.
// RUN: diff <(silica opt --allow-unregistered-dialect --promote-buffers-to-stack %s) <(mlir-opt-22 --allow-unregistered-dialect --promote-buffers-to-stack %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --promote-buffers-to-stack=max-alloc-size-in-bytes=16 %s) <(mlir-opt-22 --allow-unregistered-dialect --promote-buffers-to-stack=max-alloc-size-in-bytes=16 %s)
// RUN: diff <(silica opt --allow-unregistered-dialect "--promote-buffers-to-stack=max-rank-of-allocated-memref=2" %s) <(mlir-opt-22 --allow-unregistered-dialect "--promote-buffers-to-stack=max-rank-of-allocated-memref=2" %s)
// RUN: silica opt --allow-unregistered-dialect --promote-buffers-to-stack %s | FileCheck %s

// CHECK-LABEL: func.func @a
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<4xf32>
// CHECK: memref.alloca() : memref<16xi8>
// CHECK: memref.alloca() : memref<16x16xf32>
// CHECK: memref.alloc() : memref<300xf32>
func.func @a(%n: index, %m: memref<8xf32>) -> memref<8xf32> {
  %0 = memref.alloc() {alignment = 16 : i64} : memref<4xf32>
  %v = memref.subview %0[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  memref.dealloc %0 : memref<4xf32>
  scf.for %i = %n to %n step %n {
    %1 = memref.alloc() : memref<16xi8>
    %2 = memref.alloc() : memref<16x16xf32>
    %c = memref.alloc() : memref<2xi1>
    %d = memref.alloc() : memref<300xf32>
    "use"(%1, %2, %c) : (memref<16xi8>, memref<16x16xf32>, memref<2xi1>) -> ()
  }
  %3 = memref.alloc() : memref<8xf32>
  %4 = memref.cast %3 : memref<8xf32> to memref<?xf32>
  %5 = memref.alloc() : memref<8xf32>
  %6 = memref.alloc() : memref<0xf32>
  return %5 : memref<8xf32>
}

// CHECK-LABEL: func.func @b
// CHECK: memref.alloca(%{{.*}}) : memref<?xindex>
// CHECK: memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xindex>
// CHECK: memref.alloc(%arg1) : memref<?xf32>
func.func @b(%m: memref<*xf32>, %n: index) {
  %r = memref.rank %m : memref<*xf32>
  %0 = memref.alloc(%r) : memref<?xindex>
  %1 = memref.alloc(%r, %r) : memref<?x?xindex>
  %2 = memref.alloc(%n) : memref<?xf32>
  return
}
func.func @c() {
  %0 = memref.alloc() {alignment = 16 : i64} : memref<4xf32>
  %1 = memref.alloc() : memref<4xf32>
  memref.dealloc %1 : memref<4xf32>
  %2 = memref.alloc() : memref<4xf32>
  %3 = memref.subview %2[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  memref.dealloc %3 : memref<2xf32, strided<[1]>>
  %4 = memref.alloc() : memref<4xf32>
  "use"(%4) : (memref<4xf32>) -> ()
  %5 = memref.alloc() : memref<4xf32>
  cf.br ^bb1(%5 : memref<4xf32>)
^bb1(%a: memref<4xf32>):
  %6 = memref.alloc() : memref<4xf32, 1>
  %7 = memref.alloc() : memref<4xvector<4xf32>>
  %8 = memref.alloc() : memref<4xcomplex<f32>>
  return
}
func.func @d() -> memref<4xf32> {
  %5 = memref.alloc() : memref<4xf32>
  cf.br ^bb1(%5 : memref<4xf32>)
^bb1(%a: memref<4xf32>):
  return %a : memref<4xf32>
}
func.func @e() -> memref<4xf32> {
  %5 = memref.alloc() : memref<4xf32>
  %6 = memref.alloc() : memref<4xf32>
  %7 = "other"(%5) : (memref<4xf32>) -> memref<4xf32>
  %r = memref.reinterpret_cast %6 to offset: [0], sizes: [4], strides: [1] : memref<4xf32> to memref<4xf32>
  return %r : memref<4xf32>
}
func.func @f() -> memref<4xf32> {
  %5 = memref.alloc() : memref<4xf32>
  %7 = "other"(%5) : (memref<4xf32>) -> memref<4xf32>
  return %7 : memref<4xf32>
}
func.func @g(%c: i1) -> memref<4xf32> {
  %5 = memref.alloc() : memref<4xf32>
  %6 = memref.alloc() : memref<4xf32>
  %7 = arith.select %c, %5, %6 : memref<4xf32>
  return %7 : memref<4xf32>
}

// CHECK-LABEL: func.func @loop
// CHECK-COUNT-2: memref.alloc()
func.func @loop(%lb: index, %ub: index, %buf: memref<2xf32>) -> memref<2xf32> {
  %0 = memref.alloc() : memref<2xf32>
  %1 = scf.for %i = %lb to %ub step %lb iter_args(%b = %buf) -> memref<2xf32> {
    %2 = arith.cmpi eq, %i, %ub : index
    %3 = scf.if %2 -> (memref<2xf32>) {
      %4 = memref.alloc() : memref<2xf32>
      scf.yield %4 : memref<2xf32>
    } else {
      scf.yield %0 : memref<2xf32>
    }
    scf.yield %3 : memref<2xf32>
  }
  return %1 : memref<2xf32>
}
