// PolyBench/C 4.2 medley/floyd-warshall, MINI dataset (N=60), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @floyd_warshall(%path: memref<60x60xi32> {hls.name = "path"}) {
  affine.for %k1 = 0 to 60 {
    affine.for %i2 = 0 to 60 {
      affine.for %j3 = 0 to 60 {
        %v4 = affine.load %path[%i2, %j3] : memref<60x60xi32>
        %v5 = affine.load %path[%i2, %k1] : memref<60x60xi32>
        %v6 = affine.load %path[%k1, %j3] : memref<60x60xi32>
        %v7 = arith.addi %v5, %v6 : i32
        %p8 = arith.cmpi slt, %v4, %v7 : i32
        %v9 = affine.load %path[%i2, %k1] : memref<60x60xi32>
        %v10 = affine.load %path[%k1, %j3] : memref<60x60xi32>
        %v11 = arith.addi %v9, %v10 : i32
        %v12 = affine.load %path[%i2, %j3] : memref<60x60xi32>
        %v13 = arith.select %p8, %v12, %v11 : i32
        affine.store %v13, %path[%i2, %j3] : memref<60x60xi32>
      }
    }
  }
  return
}
