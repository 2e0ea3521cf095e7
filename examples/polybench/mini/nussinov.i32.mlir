// PolyBench/C 4.2 medley/nussinov, MINI dataset (N=60), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @nussinov(%seq: memref<60xi8> {hls.name = "seq"},
    %table: memref<60x60xi32> {hls.name = "table"}) {
  %c3 = arith.constant 3 : i32
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  affine.for %ii1 = 0 to 60 {
    affine.for %j2 = affine_map<(d0) -> (60 - d0)>(%ii1) to 60 {
      affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%j2) {
        %v3 = affine.load %table[59 - %ii1, %j2] : memref<60x60xi32>
        %v4 = affine.load %table[59 - %ii1, %j2 - 1] : memref<60x60xi32>
        %p5 = arith.cmpi sge, %v3, %v4 : i32
        %v6 = arith.select %p5, %v3, %v4 : i32
        affine.store %v6, %table[59 - %ii1, %j2] : memref<60x60xi32>
      }
      affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%ii1) {
        %v7 = affine.load %table[59 - %ii1, %j2] : memref<60x60xi32>
        %v8 = affine.load %table[60 - %ii1, %j2] : memref<60x60xi32>
        %p9 = arith.cmpi sge, %v7, %v8 : i32
        %v10 = arith.select %p9, %v7, %v8 : i32
        affine.store %v10, %table[59 - %ii1, %j2] : memref<60x60xi32>
      }
      affine.if affine_set<(d0, d1) : (d0 - 1 >= 0, d1 - 1 >= 0)>(%j2, %ii1) {
        affine.if affine_set<(d0, d1) : (d0 + d1 - 61 >= 0)>(%j2, %ii1) {
          %v11 = affine.load %seq[59 - %ii1] : memref<60xi8>
          %v12 = arith.extsi %v11 : i8 to i32
          %v13 = affine.load %seq[%j2] : memref<60xi8>
          %v14 = arith.extsi %v13 : i8 to i32
          %v15 = arith.addi %v12, %v14 : i32
          %p17 = arith.cmpi eq, %v15, %c3 : i32
          %v20 = arith.select %p17, %c1, %c0 : i32
          %v21 = affine.load %table[60 - %ii1, %j2 - 1] : memref<60x60xi32>
          %v22 = arith.addi %v21, %v20 : i32
          %v23 = affine.load %table[59 - %ii1, %j2] : memref<60x60xi32>
          %p24 = arith.cmpi sge, %v23, %v22 : i32
          %v25 = arith.select %p24, %v23, %v22 : i32
          affine.store %v25, %table[59 - %ii1, %j2] : memref<60x60xi32>
        } else {
          %v26 = affine.load %table[59 - %ii1, %j2] : memref<60x60xi32>
          %v27 = affine.load %table[60 - %ii1, %j2 - 1] : memref<60x60xi32>
          %p28 = arith.cmpi sge, %v26, %v27 : i32
          %v29 = arith.select %p28, %v26, %v27 : i32
          affine.store %v29, %table[59 - %ii1, %j2] : memref<60x60xi32>
        }
      }
      affine.for %k30 = affine_map<(d0) -> (60 - d0)>(%ii1) to affine_map<(d0) -> (d0)>(%j2) {
        %v31 = affine.load %table[59 - %ii1, %k30] : memref<60x60xi32>
        %v32 = affine.load %table[%k30 + 1, %j2] : memref<60x60xi32>
        %v33 = arith.addi %v31, %v32 : i32
        %v34 = affine.load %table[59 - %ii1, %j2] : memref<60x60xi32>
        %p35 = arith.cmpi sge, %v34, %v33 : i32
        %v36 = arith.select %p35, %v34, %v33 : i32
        affine.store %v36, %table[59 - %ii1, %j2] : memref<60x60xi32>
      }
    }
  }
  return
}
