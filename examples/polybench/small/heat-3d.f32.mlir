// PolyBench/C 4.2 stencils/heat-3d, SMALL dataset (TSTEPS=40, N=20), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @heat_3d(%A: memref<20x20x20xf32> {hls.name = "A"},
    %B: memref<20x20x20xf32> {hls.name = "B"}) {
  %cst2_0 = arith.constant 2.0 : f32
  %cst0_125 = arith.constant 0.125 : f32
  affine.for %t1 = 1 to 41 {
    affine.for %i2 = 1 to 19 {
      affine.for %j3 = 1 to 19 {
        affine.for %k4 = 1 to 19 {
          %v5 = affine.load %A[%i2 + 1, %j3, %k4] : memref<20x20x20xf32>
          %v7 = affine.load %A[%i2, %j3, %k4] : memref<20x20x20xf32>
          %v8 = arith.mulf %cst2_0, %v7 : f32
          %v9 = arith.subf %v5, %v8 : f32
          %v10 = affine.load %A[%i2 - 1, %j3, %k4] : memref<20x20x20xf32>
          %v11 = arith.addf %v9, %v10 : f32
          %v13 = arith.mulf %cst0_125, %v11 : f32
          %v14 = affine.load %A[%i2, %j3 + 1, %k4] : memref<20x20x20xf32>
          %v15 = affine.load %A[%i2, %j3, %k4] : memref<20x20x20xf32>
          %v16 = arith.mulf %cst2_0, %v15 : f32
          %v17 = arith.subf %v14, %v16 : f32
          %v18 = affine.load %A[%i2, %j3 - 1, %k4] : memref<20x20x20xf32>
          %v19 = arith.addf %v17, %v18 : f32
          %v20 = arith.mulf %cst0_125, %v19 : f32
          %v21 = arith.addf %v13, %v20 : f32
          %v22 = affine.load %A[%i2, %j3, %k4 + 1] : memref<20x20x20xf32>
          %v23 = affine.load %A[%i2, %j3, %k4] : memref<20x20x20xf32>
          %v24 = arith.mulf %cst2_0, %v23 : f32
          %v25 = arith.subf %v22, %v24 : f32
          %v26 = affine.load %A[%i2, %j3, %k4 - 1] : memref<20x20x20xf32>
          %v27 = arith.addf %v25, %v26 : f32
          %v28 = arith.mulf %cst0_125, %v27 : f32
          %v29 = arith.addf %v21, %v28 : f32
          %v30 = affine.load %A[%i2, %j3, %k4] : memref<20x20x20xf32>
          %v31 = arith.addf %v29, %v30 : f32
          affine.store %v31, %B[%i2, %j3, %k4] : memref<20x20x20xf32>
        }
      }
    }
    affine.for %i32 = 1 to 19 {
      affine.for %j33 = 1 to 19 {
        affine.for %k34 = 1 to 19 {
          %v35 = affine.load %B[%i32 + 1, %j33, %k34] : memref<20x20x20xf32>
          %v36 = affine.load %B[%i32, %j33, %k34] : memref<20x20x20xf32>
          %v37 = arith.mulf %cst2_0, %v36 : f32
          %v38 = arith.subf %v35, %v37 : f32
          %v39 = affine.load %B[%i32 - 1, %j33, %k34] : memref<20x20x20xf32>
          %v40 = arith.addf %v38, %v39 : f32
          %v41 = arith.mulf %cst0_125, %v40 : f32
          %v42 = affine.load %B[%i32, %j33 + 1, %k34] : memref<20x20x20xf32>
          %v43 = affine.load %B[%i32, %j33, %k34] : memref<20x20x20xf32>
          %v44 = arith.mulf %cst2_0, %v43 : f32
          %v45 = arith.subf %v42, %v44 : f32
          %v46 = affine.load %B[%i32, %j33 - 1, %k34] : memref<20x20x20xf32>
          %v47 = arith.addf %v45, %v46 : f32
          %v48 = arith.mulf %cst0_125, %v47 : f32
          %v49 = arith.addf %v41, %v48 : f32
          %v50 = affine.load %B[%i32, %j33, %k34 + 1] : memref<20x20x20xf32>
          %v51 = affine.load %B[%i32, %j33, %k34] : memref<20x20x20xf32>
          %v52 = arith.mulf %cst2_0, %v51 : f32
          %v53 = arith.subf %v50, %v52 : f32
          %v54 = affine.load %B[%i32, %j33, %k34 - 1] : memref<20x20x20xf32>
          %v55 = arith.addf %v53, %v54 : f32
          %v56 = arith.mulf %cst0_125, %v55 : f32
          %v57 = arith.addf %v49, %v56 : f32
          %v58 = affine.load %B[%i32, %j33, %k34] : memref<20x20x20xf32>
          %v59 = arith.addf %v57, %v58 : f32
          affine.store %v59, %A[%i32, %j33, %k34] : memref<20x20x20xf32>
        }
      }
    }
  }
  return
}
