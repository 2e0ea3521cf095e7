// PolyBench/C 4.2 stencils/heat-3d, MINI dataset (TSTEPS=20, N=10), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @heat_3d(%A: memref<10x10x10xi32> {hls.name = "A"},
    %B: memref<10x10x10xi32> {hls.name = "B"}) {
  %c2 = arith.constant 2 : i32
  %c8 = arith.constant 8 : i32
  affine.for %t1 = 1 to 21 {
    affine.for %i2 = 1 to 9 {
      affine.for %j3 = 1 to 9 {
        affine.for %k4 = 1 to 9 {
          %v5 = affine.load %A[%i2 + 1, %j3, %k4] : memref<10x10x10xi32>
          %v7 = affine.load %A[%i2, %j3, %k4] : memref<10x10x10xi32>
          %v8 = arith.muli %c2, %v7 : i32
          %v9 = arith.subi %v5, %v8 : i32
          %v10 = affine.load %A[%i2 - 1, %j3, %k4] : memref<10x10x10xi32>
          %v11 = arith.addi %v9, %v10 : i32
          %v13 = arith.divsi %v11, %c8 : i32
          %v14 = affine.load %A[%i2, %j3 + 1, %k4] : memref<10x10x10xi32>
          %v15 = affine.load %A[%i2, %j3, %k4] : memref<10x10x10xi32>
          %v16 = arith.muli %c2, %v15 : i32
          %v17 = arith.subi %v14, %v16 : i32
          %v18 = affine.load %A[%i2, %j3 - 1, %k4] : memref<10x10x10xi32>
          %v19 = arith.addi %v17, %v18 : i32
          %v20 = arith.divsi %v19, %c8 : i32
          %v21 = arith.addi %v13, %v20 : i32
          %v22 = affine.load %A[%i2, %j3, %k4 + 1] : memref<10x10x10xi32>
          %v23 = affine.load %A[%i2, %j3, %k4] : memref<10x10x10xi32>
          %v24 = arith.muli %c2, %v23 : i32
          %v25 = arith.subi %v22, %v24 : i32
          %v26 = affine.load %A[%i2, %j3, %k4 - 1] : memref<10x10x10xi32>
          %v27 = arith.addi %v25, %v26 : i32
          %v28 = arith.divsi %v27, %c8 : i32
          %v29 = arith.addi %v21, %v28 : i32
          %v30 = affine.load %A[%i2, %j3, %k4] : memref<10x10x10xi32>
          %v31 = arith.addi %v29, %v30 : i32
          affine.store %v31, %B[%i2, %j3, %k4] : memref<10x10x10xi32>
        }
      }
    }
    affine.for %i32 = 1 to 9 {
      affine.for %j33 = 1 to 9 {
        affine.for %k34 = 1 to 9 {
          %v35 = affine.load %B[%i32 + 1, %j33, %k34] : memref<10x10x10xi32>
          %v36 = affine.load %B[%i32, %j33, %k34] : memref<10x10x10xi32>
          %v37 = arith.muli %c2, %v36 : i32
          %v38 = arith.subi %v35, %v37 : i32
          %v39 = affine.load %B[%i32 - 1, %j33, %k34] : memref<10x10x10xi32>
          %v40 = arith.addi %v38, %v39 : i32
          %v41 = arith.divsi %v40, %c8 : i32
          %v42 = affine.load %B[%i32, %j33 + 1, %k34] : memref<10x10x10xi32>
          %v43 = affine.load %B[%i32, %j33, %k34] : memref<10x10x10xi32>
          %v44 = arith.muli %c2, %v43 : i32
          %v45 = arith.subi %v42, %v44 : i32
          %v46 = affine.load %B[%i32, %j33 - 1, %k34] : memref<10x10x10xi32>
          %v47 = arith.addi %v45, %v46 : i32
          %v48 = arith.divsi %v47, %c8 : i32
          %v49 = arith.addi %v41, %v48 : i32
          %v50 = affine.load %B[%i32, %j33, %k34 + 1] : memref<10x10x10xi32>
          %v51 = affine.load %B[%i32, %j33, %k34] : memref<10x10x10xi32>
          %v52 = arith.muli %c2, %v51 : i32
          %v53 = arith.subi %v50, %v52 : i32
          %v54 = affine.load %B[%i32, %j33, %k34 - 1] : memref<10x10x10xi32>
          %v55 = arith.addi %v53, %v54 : i32
          %v56 = arith.divsi %v55, %c8 : i32
          %v57 = arith.addi %v49, %v56 : i32
          %v58 = affine.load %B[%i32, %j33, %k34] : memref<10x10x10xi32>
          %v59 = arith.addi %v57, %v58 : i32
          affine.store %v59, %A[%i32, %j33, %k34] : memref<10x10x10xi32>
        }
      }
    }
  }
  return
}
