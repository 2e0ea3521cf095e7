// PolyBench/C 4.2 stencils/adi, SMALL dataset (TSTEPS=40, N=60), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @adi(%u: memref<60x60xf32> {hls.name = "u"},
    %v: memref<60x60xf32> {hls.name = "v"},
    %p: memref<60x60xf32> {hls.name = "p"},
    %q: memref<60x60xf32> {hls.name = "q"}) {
  %cst1_0 = arith.constant 1.0 : f32
  %cst2_0 = arith.constant 2.0 : f32
  %cst60_0 = arith.constant 60.0 : f32
  %cst40_0 = arith.constant 40.0 : f32
  %cst0_0 = arith.constant 0.0 : f32
  %v4 = arith.divf %cst1_0, %cst60_0 : f32
  %v5 = arith.divf %cst1_0, %cst60_0 : f32
  %v7 = arith.divf %cst1_0, %cst40_0 : f32
  %v8 = arith.mulf %cst2_0, %v7 : f32
  %v9 = arith.mulf %v4, %v4 : f32
  %v10 = arith.divf %v8, %v9 : f32
  %v11 = arith.mulf %cst1_0, %v7 : f32
  %v12 = arith.mulf %v5, %v5 : f32
  %v13 = arith.divf %v11, %v12 : f32
  %v14 = arith.negf %v10 : f32
  %v15 = arith.divf %v14, %cst2_0 : f32
  %v16 = arith.addf %cst1_0, %v10 : f32
  %v17 = arith.negf %v13 : f32
  %v18 = arith.divf %v17, %cst2_0 : f32
  %v19 = arith.addf %cst1_0, %v13 : f32
  affine.for %t20 = 1 to 41 {
    affine.for %i21 = 1 to 59 {
      affine.store %cst1_0, %v[0, %i21] : memref<60x60xf32>
      affine.store %cst0_0, %p[%i21, 0] : memref<60x60xf32>
      %v23 = affine.load %v[0, %i21] : memref<60x60xf32>
      affine.store %v23, %q[%i21, 0] : memref<60x60xf32>
      affine.for %j24 = 1 to 59 {
        %v25 = affine.load %p[%i21, %j24 - 1] : memref<60x60xf32>
        %v26 = arith.mulf %v15, %v25 : f32
        %v27 = arith.addf %v26, %v16 : f32
        %v28 = arith.negf %v15 : f32
        %v29 = arith.divf %v28, %v27 : f32
        affine.store %v29, %p[%i21, %j24] : memref<60x60xf32>
        %v30 = arith.negf %v18 : f32
        %v31 = affine.load %u[%j24, %i21 - 1] : memref<60x60xf32>
        %v32 = arith.mulf %v30, %v31 : f32
        %v33 = arith.mulf %cst2_0, %v18 : f32
        %v34 = arith.addf %cst1_0, %v33 : f32
        %v35 = affine.load %u[%j24, %i21] : memref<60x60xf32>
        %v36 = arith.mulf %v34, %v35 : f32
        %v37 = arith.addf %v32, %v36 : f32
        %v38 = affine.load %u[%j24, %i21 + 1] : memref<60x60xf32>
        %v39 = arith.mulf %v18, %v38 : f32
        %v40 = arith.subf %v37, %v39 : f32
        %v41 = affine.load %q[%i21, %j24 - 1] : memref<60x60xf32>
        %v42 = arith.mulf %v15, %v41 : f32
        %v43 = arith.subf %v40, %v42 : f32
        %v44 = affine.load %p[%i21, %j24 - 1] : memref<60x60xf32>
        %v45 = arith.mulf %v15, %v44 : f32
        %v46 = arith.addf %v45, %v16 : f32
        %v47 = arith.divf %v43, %v46 : f32
        affine.store %v47, %q[%i21, %j24] : memref<60x60xf32>
      }
      affine.store %cst1_0, %v[59, %i21] : memref<60x60xf32>
      affine.for %jj48 = 0 to 58 {
        %v49 = affine.load %p[%i21, 58 - %jj48] : memref<60x60xf32>
        %v50 = affine.load %v[59 - %jj48, %i21] : memref<60x60xf32>
        %v51 = arith.mulf %v49, %v50 : f32
        %v52 = affine.load %q[%i21, 58 - %jj48] : memref<60x60xf32>
        %v53 = arith.addf %v51, %v52 : f32
        affine.store %v53, %v[58 - %jj48, %i21] : memref<60x60xf32>
      }
    }
    affine.for %i54 = 1 to 59 {
      affine.store %cst1_0, %u[%i54, 0] : memref<60x60xf32>
      affine.store %cst0_0, %p[%i54, 0] : memref<60x60xf32>
      %v55 = affine.load %u[%i54, 0] : memref<60x60xf32>
      affine.store %v55, %q[%i54, 0] : memref<60x60xf32>
      affine.for %j56 = 1 to 59 {
        %v57 = affine.load %p[%i54, %j56 - 1] : memref<60x60xf32>
        %v58 = arith.mulf %v18, %v57 : f32
        %v59 = arith.addf %v58, %v19 : f32
        %v60 = arith.negf %v18 : f32
        %v61 = arith.divf %v60, %v59 : f32
        affine.store %v61, %p[%i54, %j56] : memref<60x60xf32>
        %v62 = arith.negf %v15 : f32
        %v63 = affine.load %v[%i54 - 1, %j56] : memref<60x60xf32>
        %v64 = arith.mulf %v62, %v63 : f32
        %v65 = arith.mulf %cst2_0, %v15 : f32
        %v66 = arith.addf %cst1_0, %v65 : f32
        %v67 = affine.load %v[%i54, %j56] : memref<60x60xf32>
        %v68 = arith.mulf %v66, %v67 : f32
        %v69 = arith.addf %v64, %v68 : f32
        %v70 = affine.load %v[%i54 + 1, %j56] : memref<60x60xf32>
        %v71 = arith.mulf %v15, %v70 : f32
        %v72 = arith.subf %v69, %v71 : f32
        %v73 = affine.load %q[%i54, %j56 - 1] : memref<60x60xf32>
        %v74 = arith.mulf %v18, %v73 : f32
        %v75 = arith.subf %v72, %v74 : f32
        %v76 = affine.load %p[%i54, %j56 - 1] : memref<60x60xf32>
        %v77 = arith.mulf %v18, %v76 : f32
        %v78 = arith.addf %v77, %v19 : f32
        %v79 = arith.divf %v75, %v78 : f32
        affine.store %v79, %q[%i54, %j56] : memref<60x60xf32>
      }
      affine.store %cst1_0, %u[%i54, 59] : memref<60x60xf32>
      affine.for %jj80 = 0 to 58 {
        %v81 = affine.load %p[%i54, 58 - %jj80] : memref<60x60xf32>
        %v82 = affine.load %u[%i54, 59 - %jj80] : memref<60x60xf32>
        %v83 = arith.mulf %v81, %v82 : f32
        %v84 = affine.load %q[%i54, 58 - %jj80] : memref<60x60xf32>
        %v85 = arith.addf %v83, %v84 : f32
        affine.store %v85, %u[%i54, 58 - %jj80] : memref<60x60xf32>
      }
    }
  }
  return
}
