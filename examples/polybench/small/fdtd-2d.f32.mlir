// PolyBench/C 4.2 stencils/fdtd-2d, SMALL dataset (TMAX=40, NX=60, NY=80), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @fdtd_2d(%ex: memref<60x80xf32> {hls.name = "ex"},
    %ey: memref<60x80xf32> {hls.name = "ey"},
    %hz: memref<60x80xf32> {hls.name = "hz"},
    %fict: memref<40xf32> {hls.name = "fict"}) {
  %cst0_5 = arith.constant 0.5 : f32
  %cst0_7 = arith.constant 0.7 : f32
  affine.for %t1 = 0 to 40 {
    affine.for %j2 = 0 to 80 {
      %v3 = affine.load %fict[%t1] : memref<40xf32>
      affine.store %v3, %ey[0, %j2] : memref<60x80xf32>
    }
    affine.for %i4 = 1 to 60 {
      affine.for %j5 = 0 to 80 {
        %v6 = affine.load %hz[%i4, %j5] : memref<60x80xf32>
        %v7 = affine.load %hz[%i4 - 1, %j5] : memref<60x80xf32>
        %v8 = arith.subf %v6, %v7 : f32
        %v9 = affine.load %ey[%i4, %j5] : memref<60x80xf32>
        %v11 = arith.mulf %cst0_5, %v8 : f32
        %v12 = arith.subf %v9, %v11 : f32
        affine.store %v12, %ey[%i4, %j5] : memref<60x80xf32>
      }
    }
    affine.for %i13 = 0 to 60 {
      affine.for %j14 = 1 to 80 {
        %v15 = affine.load %hz[%i13, %j14] : memref<60x80xf32>
        %v16 = affine.load %hz[%i13, %j14 - 1] : memref<60x80xf32>
        %v17 = arith.subf %v15, %v16 : f32
        %v18 = affine.load %ex[%i13, %j14] : memref<60x80xf32>
        %v19 = arith.mulf %cst0_5, %v17 : f32
        %v20 = arith.subf %v18, %v19 : f32
        affine.store %v20, %ex[%i13, %j14] : memref<60x80xf32>
      }
    }
    affine.for %i21 = 0 to 59 {
      affine.for %j22 = 0 to 79 {
        %v23 = affine.load %ex[%i21, %j22 + 1] : memref<60x80xf32>
        %v24 = affine.load %ex[%i21, %j22] : memref<60x80xf32>
        %v25 = arith.subf %v23, %v24 : f32
        %v26 = affine.load %ey[%i21 + 1, %j22] : memref<60x80xf32>
        %v27 = arith.addf %v25, %v26 : f32
        %v28 = affine.load %ey[%i21, %j22] : memref<60x80xf32>
        %v29 = arith.subf %v27, %v28 : f32
        %v30 = affine.load %hz[%i21, %j22] : memref<60x80xf32>
        %v32 = arith.mulf %cst0_7, %v29 : f32
        %v33 = arith.subf %v30, %v32 : f32
        affine.store %v33, %hz[%i21, %j22] : memref<60x80xf32>
      }
    }
  }
  return
}
