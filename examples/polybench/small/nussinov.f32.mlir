// PolyBench/C 4.2 medley/nussinov, SMALL dataset (N=180), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @nussinov(%seq: memref<180xi8> {hls.name = "seq"},
    %table: memref<180x180xf32> {hls.name = "table"}) {
  %c3_i32 = arith.constant 3 : i32
  %cst1_0 = arith.constant 1.0 : f32
  %cst0_0 = arith.constant 0.0 : f32
  affine.for %ii1 = 0 to 180 {
    affine.for %j2 = affine_map<(d0) -> (180 - d0)>(%ii1) to 180 {
      affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%j2) {
        %v3 = affine.load %table[179 - %ii1, %j2] : memref<180x180xf32>
        %v4 = affine.load %table[179 - %ii1, %j2 - 1] : memref<180x180xf32>
        %p5 = arith.cmpf oge, %v3, %v4 : f32
        %v6 = arith.select %p5, %v3, %v4 : f32
        affine.store %v6, %table[179 - %ii1, %j2] : memref<180x180xf32>
      }
      affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%ii1) {
        %v7 = affine.load %table[179 - %ii1, %j2] : memref<180x180xf32>
        %v8 = affine.load %table[180 - %ii1, %j2] : memref<180x180xf32>
        %p9 = arith.cmpf oge, %v7, %v8 : f32
        %v10 = arith.select %p9, %v7, %v8 : f32
        affine.store %v10, %table[179 - %ii1, %j2] : memref<180x180xf32>
      }
      affine.if affine_set<(d0, d1) : (d0 - 1 >= 0, d1 - 1 >= 0)>(%j2, %ii1) {
        affine.if affine_set<(d0, d1) : (d0 + d1 - 181 >= 0)>(%j2, %ii1) {
          %v11 = affine.load %seq[179 - %ii1] : memref<180xi8>
          %v12 = arith.extsi %v11 : i8 to i32
          %v13 = affine.load %seq[%j2] : memref<180xi8>
          %v14 = arith.extsi %v13 : i8 to i32
          %v15 = arith.addi %v12, %v14 : i32
          %p17 = arith.cmpi eq, %v15, %c3_i32 : i32
          %v20 = arith.select %p17, %cst1_0, %cst0_0 : f32
          %v21 = affine.load %table[180 - %ii1, %j2 - 1] : memref<180x180xf32>
          %v22 = arith.addf %v21, %v20 : f32
          %v23 = affine.load %table[179 - %ii1, %j2] : memref<180x180xf32>
          %p24 = arith.cmpf oge, %v23, %v22 : f32
          %v25 = arith.select %p24, %v23, %v22 : f32
          affine.store %v25, %table[179 - %ii1, %j2] : memref<180x180xf32>
        } else {
          %v26 = affine.load %table[179 - %ii1, %j2] : memref<180x180xf32>
          %v27 = affine.load %table[180 - %ii1, %j2 - 1] : memref<180x180xf32>
          %p28 = arith.cmpf oge, %v26, %v27 : f32
          %v29 = arith.select %p28, %v26, %v27 : f32
          affine.store %v29, %table[179 - %ii1, %j2] : memref<180x180xf32>
        }
      }
      affine.for %k30 = affine_map<(d0) -> (180 - d0)>(%ii1) to affine_map<(d0) -> (d0)>(%j2) {
        %v31 = affine.load %table[179 - %ii1, %k30] : memref<180x180xf32>
        %v32 = affine.load %table[%k30 + 1, %j2] : memref<180x180xf32>
        %v33 = arith.addf %v31, %v32 : f32
        %v34 = affine.load %table[179 - %ii1, %j2] : memref<180x180xf32>
        %p35 = arith.cmpf oge, %v34, %v33 : f32
        %v36 = arith.select %p35, %v34, %v33 : f32
        affine.store %v36, %table[179 - %ii1, %j2] : memref<180x180xf32>
      }
    }
  }
  return
}
