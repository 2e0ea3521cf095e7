// PolyBench/C 4.2 stencils/fdtd-2d, MINI dataset (TMAX=20, NX=20, NY=30), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @fdtd_2d(%ex: memref<20x30xi32> {hls.name = "ex"},
    %ey: memref<20x30xi32> {hls.name = "ey"},
    %hz: memref<20x30xi32> {hls.name = "hz"},
    %fict: memref<20xi32> {hls.name = "fict"}) {
  %c2 = arith.constant 2 : i32
  %c7 = arith.constant 7 : i32
  %c10 = arith.constant 10 : i32
  affine.for %t1 = 0 to 20 {
    affine.for %j2 = 0 to 30 {
      %v3 = affine.load %fict[%t1] : memref<20xi32>
      affine.store %v3, %ey[0, %j2] : memref<20x30xi32>
    }
    affine.for %i4 = 1 to 20 {
      affine.for %j5 = 0 to 30 {
        %v6 = affine.load %hz[%i4, %j5] : memref<20x30xi32>
        %v7 = affine.load %hz[%i4 - 1, %j5] : memref<20x30xi32>
        %v8 = arith.subi %v6, %v7 : i32
        %v9 = affine.load %ey[%i4, %j5] : memref<20x30xi32>
        %v11 = arith.divsi %v8, %c2 : i32
        %v12 = arith.subi %v9, %v11 : i32
        affine.store %v12, %ey[%i4, %j5] : memref<20x30xi32>
      }
    }
    affine.for %i13 = 0 to 20 {
      affine.for %j14 = 1 to 30 {
        %v15 = affine.load %hz[%i13, %j14] : memref<20x30xi32>
        %v16 = affine.load %hz[%i13, %j14 - 1] : memref<20x30xi32>
        %v17 = arith.subi %v15, %v16 : i32
        %v18 = affine.load %ex[%i13, %j14] : memref<20x30xi32>
        %v19 = arith.divsi %v17, %c2 : i32
        %v20 = arith.subi %v18, %v19 : i32
        affine.store %v20, %ex[%i13, %j14] : memref<20x30xi32>
      }
    }
    affine.for %i21 = 0 to 19 {
      affine.for %j22 = 0 to 29 {
        %v23 = affine.load %ex[%i21, %j22 + 1] : memref<20x30xi32>
        %v24 = affine.load %ex[%i21, %j22] : memref<20x30xi32>
        %v25 = arith.subi %v23, %v24 : i32
        %v26 = affine.load %ey[%i21 + 1, %j22] : memref<20x30xi32>
        %v27 = arith.addi %v25, %v26 : i32
        %v28 = affine.load %ey[%i21, %j22] : memref<20x30xi32>
        %v29 = arith.subi %v27, %v28 : i32
        %v30 = affine.load %hz[%i21, %j22] : memref<20x30xi32>
        %v32 = arith.muli %c7, %v29 : i32
        %v34 = arith.divsi %v32, %c10 : i32
        %v35 = arith.subi %v30, %v34 : i32
        affine.store %v35, %hz[%i21, %j22] : memref<20x30xi32>
      }
    }
  }
  return
}
