// memref.alloca_scope and ub.poison/ub.unreachable: the custom and generic
// forms as mlir-opt-22 prints them, their checks, and the scope's
// canonicalizations (inlined when no allocation can outlive it, or when
// it ends an allocation scope; allocations hoisted out of a scope that
// ends the regions up to the enclosing one).
// RUN: diff <(silica opt %s --split-input-file --allow-unregistered-dialect) <(mlir-opt-22 %s --split-input-file --allow-unregistered-dialect)
// RUN: diff <(silica opt %s --split-input-file --allow-unregistered-dialect --mlir-print-op-generic) <(mlir-opt-22 %s --split-input-file --allow-unregistered-dialect --mlir-print-op-generic)
// RUN: diff <(silica opt %s --split-input-file --canonicalize --allow-unregistered-dialect) <(mlir-opt-22 %s --split-input-file --canonicalize --allow-unregistered-dialect)
// RUN: silica opt %s --split-input-file --canonicalize --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @scopes(
// CHECK-NOT:     memref.alloca_scope
// CHECK:         memref.store %arg1, %arg0[] : memref<index>
func.func @scopes(%m: memref<index>, %i: index) -> index {
  memref.alloca_scope {
    memref.store %i, %m[] : memref<index>
  }
  %r = memref.alloca_scope -> (index) {
    %v = memref.load %m[] : memref<index>
    memref.alloca_scope.return %v : index
  } {note = "kept"}
  return %r : index
}

// -----

// CHECK-LABEL: func.func @keeps_allocation(
// CHECK:         scf.for
// CHECK-NEXT:      memref.alloca_scope  {
func.func @keeps_allocation(%n: index, %m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    memref.alloca_scope {
      %a = memref.alloca(%i) : memref<?xf32>
      memref.copy %a, %m : memref<?xf32> to memref<?xf32>
    }
    %z = arith.constant 0.0 : f32
    memref.store %z, %m[%i] : memref<?xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @hoists(
// CHECK:         %[[A:.*]] = memref.alloca(%arg0) : memref<?xf32>
// CHECK-NEXT:    scf.if %arg2 {
func.func @hoists(%n: index, %m: memref<?xf32>, %c: i1) {
  scf.if %c {
    memref.alloca_scope {
      %a = memref.alloca(%n) : memref<?xf32>
      memref.copy %a, %m : memref<?xf32> to memref<?xf32>
      "test.use"(%a) : (memref<?xf32>) -> ()
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @unreachable(
// CHECK-NEXT:    %[[P:.*]] = ub.poison : i32
// CHECK-NEXT:    return %[[P]] : i32
func.func @unreachable(%c: i1) -> i32 {
  %p = ub.poison <#ub.poison> : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  ub.unreachable
^bb2:
  return %p : i32
}
