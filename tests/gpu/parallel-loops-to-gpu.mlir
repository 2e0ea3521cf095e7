// convert-parallel-loops-to-gpu: mapped scf.parallel nests become
// gpu.launch: ids scaled by the step and offset by the lower bound, launch
// sizes from the trip counts, sequential dimensions as scf.for, a bound
// computed inside the nest (a tile's affine.min) sized by its constant and
// guarded by scf.if. Loops it cannot convert stay. The output is
// mlir-opt-22's.
// RUN: diff <(silica opt --split-input-file --gpu-map-parallel-loops --convert-parallel-loops-to-gpu %s) <(mlir-opt-22 --split-input-file --gpu-map-parallel-loops --convert-parallel-loops-to-gpu %s)
// A reduction is left as it is (mlir-opt-22 fails on it with an
// unresolved materialisation):
// RUN: silica opt --gpu-map-parallel-loops --convert-parallel-loops-to-gpu %S/parallel-reduction.input | FileCheck %s
// CHECK: scf.parallel
// CHECK-NOT: gpu.launch

func.func @steps(%a: memref<100xi32>, %lo: index, %hi: index) {
  %c3 = arith.constant 3 : index
  scf.parallel (%i) = (%lo) to (%hi) step (%c3) {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %a[%i] : memref<100xi32>
    scf.reduce
  }
  return
}

// -----

// gemm after affine-parallelize and lower-affine.
func.func @gemm(%arg0: memref<16x8xi32>, %arg1: memref<8x12xi32>, %arg2: memref<16x12xi32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%arg3) = (%c0) to (%c16) step (%c1) {
    %c0_0 = arith.constant 0 : index
    %c12 = arith.constant 12 : index
    %c1_1 = arith.constant 1 : index
    scf.parallel (%arg4) = (%c0_0) to (%c12) step (%c1_1) {
      %c0_2 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c1_3 = arith.constant 1 : index
      scf.for %arg5 = %c0_2 to %c8 step %c1_3 {
        %0 = memref.load %arg0[%arg3, %arg5] : memref<16x8xi32>
        %1 = memref.load %arg1[%arg5, %arg4] : memref<8x12xi32>
        %2 = memref.load %arg2[%arg3, %arg4] : memref<16x12xi32>
        %3 = arith.muli %0, %1 : i32
        %4 = arith.addi %2, %3 : i32
        memref.store %4, %arg2[%arg3, %arg4] : memref<16x12xi32>
      }
      scf.reduce 
    }
    scf.reduce 
  }
  return
}

// -----

func.func @two_levels(%a: memref<4x5x6x7xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c5) step (%c1, %c1) {
    %x = arith.muli %i, %j : index
    scf.parallel (%k, %l) = (%c0, %c0) to (%c6, %c7) step (%c1, %c1) {
      %v = arith.index_cast %x : index to i32
      memref.store %v, %a[%i, %j, %k, %l] : memref<4x5x6x7xi32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// A store outside the innermost scope: left as it is.
func.func @effects_outside(%a: memref<10x10xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %z = arith.constant 0 : i32
  scf.parallel (%i) = (%c0) to (%c10) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c10) step (%c1) {
      memref.store %z, %a[%i, %j] : memref<10x10xi32>
      scf.reduce
    }
    memref.store %z, %a[%i, %c0] : memref<10x10xi32>
    scf.reduce
  }
  return
}

// -----

func.func @tiled(%a: memref<100xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c100) step (%c32) {
    %ub = affine.min affine_map<(d0) -> (32, 100 - d0)>(%i)
    scf.parallel (%j) = (%c0) to (%ub) step (%c1) {
      %k = arith.addi %i, %j : index
      %v = arith.index_cast %k : index to i32
      memref.store %v, %a[%k] : memref<100xi32>
      scf.reduce
    }
    scf.reduce
  }
  return
}
