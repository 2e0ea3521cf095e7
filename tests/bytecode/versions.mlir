// Every bytecode version mlir-opt-22 writes (0 to 6): silica writes the
// same bytes and reads each back. Before version 5 properties go in the
// attribute dictionary; before 6 segment sizes are array attributes;
// before 4 unknown block argument locations are written; before 3 no
// use-list orders; before 2 isolated regions are inline.
// RUN: for v in 0 1 2 3 4 5 6; do \
// RUN:   silica opt --allow-unregistered-dialect --emit-bytecode --emit-bytecode-version=$v %s -o %t.silica.$v.mlirbc && \
// RUN:   mlir-opt-22 --allow-unregistered-dialect --emit-bytecode --emit-bytecode-version=$v %s -o %t.mlir-opt.$v.mlirbc && \
// RUN:   cmp %t.silica.$v.mlirbc %t.mlir-opt.$v.mlirbc && \
// RUN:   diff <(silica opt --allow-unregistered-dialect --mlir-print-debuginfo %t.mlir-opt.$v.mlirbc) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-debuginfo %t.mlir-opt.$v.mlirbc) || exit 1; \
// RUN: done
// RUN: not silica opt --emit-bytecode --emit-bytecode-version=7 %s 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not silica opt --emit-bytecode-version=3 %s 2>&1 | FileCheck %s --check-prefix=ALONE
// RANGE: unsupported version requested 7, must be in range [0, 6]
// ALONE: bytecode version while not emitting bytecode

func.func @f(%m: memref<?xf32>, %n: index, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) {alignment = 16 : i64} : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %m[%i] : memref<?xf32>
    %s = arith.addf %v, %x : f32
    memref.store %s, %a[%i] : memref<?xf32>
  }
  "xx.op"(%a) <{p = 1 : i32}> {q = 2 : i32} : (memref<?xf32>) -> ()
  ^bb1(%arg: i32 loc(unknown)):
  return
}
