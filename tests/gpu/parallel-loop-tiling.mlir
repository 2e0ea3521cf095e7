// scf-parallel-loop-tiling: innermost scf.parallel loops as loops over
// tiles around loops within a tile (bounded by affine.min where the trip
// count is no multiple of the tile size, or with no-min-max-bounds by an
// scf.if on each index), the old indices the sum of both. Then, as
// `silica gpu --block` runs it, canonicalized and mapped: the tiles to
// blocks, a guard against the tile's bound. The output is mlir-opt-22's.
// RUN: diff <(silica opt --split-input-file --scf-parallel-loop-tiling=parallel-loop-tile-sizes=32 %s) <(mlir-opt-22 --split-input-file --scf-parallel-loop-tiling=parallel-loop-tile-sizes=32 %s)
// RUN: diff <(silica opt --split-input-file --scf-parallel-loop-tiling=parallel-loop-tile-sizes=4,8 %s) <(mlir-opt-22 --split-input-file --scf-parallel-loop-tiling=parallel-loop-tile-sizes=4,8 %s)
// RUN: diff <(silica opt --split-input-file --scf-parallel-loop-tiling="parallel-loop-tile-sizes=3,8 no-min-max-bounds=true" %s) <(mlir-opt-22 --split-input-file --scf-parallel-loop-tiling="parallel-loop-tile-sizes=3,8 no-min-max-bounds=true" %s)
// RUN: diff <(silica opt --split-input-file --scf-parallel-loop-tiling=parallel-loop-tile-sizes=7 --canonicalize --gpu-map-parallel-loops --convert-parallel-loops-to-gpu %s) <(mlir-opt-22 --split-input-file --scf-parallel-loop-tiling=parallel-loop-tile-sizes=7 --canonicalize --gpu-map-parallel-loops --convert-parallel-loops-to-gpu %s)
// RUN: not silica opt --scf-parallel-loop-tiling=parallel-loop-tile-sizes=0 %s 2>&1 | FileCheck %s
// CHECK: invalid tile size '0' of scf-parallel-loop-tiling

func.func @add(%a: memref<64xi32>, %b: memref<64xi32>, %c: memref<64xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %x = memref.load %a[%i] : memref<64xi32>
    %y = memref.load %b[%i] : memref<64xi32>
    %s = arith.addi %x, %y : i32
    memref.store %s, %c[%i] : memref<64xi32>
    scf.reduce
  }
  return
}

// -----

func.func @two(%a: memref<30x20xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c20 = arith.constant 20 : index
  scf.parallel (%i, %j) = (%c0, %c1) to (%n, %c20) step (%c1, %c2) {
    %v = arith.index_cast %j : index to i32
    memref.store %v, %a[%i, %j] : memref<30x20xi32>
    scf.reduce
  }
  return
}

// -----

func.func @nested(%a: memref<30x20xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c30 = arith.constant 30 : index
  %c20 = arith.constant 20 : index
  scf.parallel (%i) = (%c0) to (%c30) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c20) step (%c1) {
      %v = arith.index_cast %j : index to i32
      memref.store %v, %a[%i, %j] : memref<30x20xi32>
      scf.reduce
    }
    scf.reduce
  }
  return
}
