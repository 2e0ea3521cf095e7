// gpu-map-parallel-loops: the outermost scf.parallel's first three
// dimensions go to blocks, the next level's to threads, the rest run
// sequentially; innermost-first gives x to the last of the three. The
// output is mlir-opt-22's.
// RUN: diff <(silica opt --split-input-file --gpu-map-parallel-loops %s) <(mlir-opt-22 --split-input-file --gpu-map-parallel-loops %s)
// RUN: diff <(silica opt --split-input-file --gpu-map-parallel-loops=mapping-policy=innermost-first %s) <(mlir-opt-22 --split-input-file --gpu-map-parallel-loops=mapping-policy=innermost-first %s)
// RUN: not silica opt --gpu-map-parallel-loops=mapping-policy=sideways %s 2>&1 | FileCheck %s
// CHECK: Invalid mapping policy specified.

func.func @nest(%a: memref<8x16x4xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c16) step (%c1, %c2) {
    scf.parallel (%k) = (%c0) to (%n) step (%c1) {
      scf.parallel (%l) = (%c0) to (%c4) step (%c1) {
        %v = arith.index_cast %l : index to i32
        memref.store %v, %a[%i, %j, %l] : memref<8x16x4xi32>
      }
    }
  }
  return
}

// -----

func.func @wide(%a: memref<8x16x4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i, %j, %k, %l) = (%c0, %c0, %c0, %c0) to (%c8, %c16, %c4, %c4) step (%c1, %c1, %c1, %c1) {
    %v = arith.index_cast %l : index to i32
    memref.store %v, %a[%i, %j, %k] : memref<8x16x4xi32>
  }
  return
}

// -----

// A loop under a sequential loop is not mapped from inside; one already
// mapped keeps its mapping.
func.func @under_for(%a: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    scf.for %j = %c0 to %c8 step %c1 {
      scf.parallel (%k) = (%c0) to (%c8) step (%c1) {
        %v = arith.index_cast %k : index to i32
        memref.store %v, %a[%k] : memref<8xi32>
      }
    }
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %a[%i] : memref<8xi32>
  } {mapping = [#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}
