// PolyBench/C 4.2 stencils/adi, MINI dataset (TSTEPS=20, N=20), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @adi(%u: memref<20x20xf32> {hls.name = "u"},
    %v: memref<20x20xf32> {hls.name = "v"},
    %p: memref<20x20xf32> {hls.name = "p"},
    %q: memref<20x20xf32> {hls.name = "q"}) {
  %cst1_0 = arith.constant 1.0 : f32
  %cst2_0 = arith.constant 2.0 : f32
  %cst20_0 = arith.constant 20.0 : f32
  %cst0_0 = arith.constant 0.0 : f32
  %v4 = arith.divf %cst1_0, %cst20_0 : f32
  %v5 = arith.divf %cst1_0, %cst20_0 : f32
  %v6 = arith.divf %cst1_0, %cst20_0 : f32
  %v7 = arith.mulf %cst2_0, %v6 : f32
  %v8 = arith.mulf %v4, %v4 : f32
  %v9 = arith.divf %v7, %v8 : f32
  %v10 = arith.mulf %cst1_0, %v6 : f32
  %v11 = arith.mulf %v5, %v5 : f32
  %v12 = arith.divf %v10, %v11 : f32
  %v13 = arith.negf %v9 : f32
  %v14 = arith.divf %v13, %cst2_0 : f32
  %v15 = arith.addf %cst1_0, %v9 : f32
  %v16 = arith.negf %v12 : f32
  %v17 = arith.divf %v16, %cst2_0 : f32
  %v18 = arith.addf %cst1_0, %v12 : f32
  affine.for %t19 = 1 to 21 {
    affine.for %i20 = 1 to 19 {
      affine.store %cst1_0, %v[0, %i20] : memref<20x20xf32>
      affine.store %cst0_0, %p[%i20, 0] : memref<20x20xf32>
      %v22 = affine.load %v[0, %i20] : memref<20x20xf32>
      affine.store %v22, %q[%i20, 0] : memref<20x20xf32>
      affine.for %j23 = 1 to 19 {
        %v24 = affine.load %p[%i20, %j23 - 1] : memref<20x20xf32>
        %v25 = arith.mulf %v14, %v24 : f32
        %v26 = arith.addf %v25, %v15 : f32
        %v27 = arith.negf %v14 : f32
        %v28 = arith.divf %v27, %v26 : f32
        affine.store %v28, %p[%i20, %j23] : memref<20x20xf32>
        %v29 = arith.negf %v17 : f32
        %v30 = affine.load %u[%j23, %i20 - 1] : memref<20x20xf32>
        %v31 = arith.mulf %v29, %v30 : f32
        %v32 = arith.mulf %cst2_0, %v17 : f32
        %v33 = arith.addf %cst1_0, %v32 : f32
        %v34 = affine.load %u[%j23, %i20] : memref<20x20xf32>
        %v35 = arith.mulf %v33, %v34 : f32
        %v36 = arith.addf %v31, %v35 : f32
        %v37 = affine.load %u[%j23, %i20 + 1] : memref<20x20xf32>
        %v38 = arith.mulf %v17, %v37 : f32
        %v39 = arith.subf %v36, %v38 : f32
        %v40 = affine.load %q[%i20, %j23 - 1] : memref<20x20xf32>
        %v41 = arith.mulf %v14, %v40 : f32
        %v42 = arith.subf %v39, %v41 : f32
        %v43 = affine.load %p[%i20, %j23 - 1] : memref<20x20xf32>
        %v44 = arith.mulf %v14, %v43 : f32
        %v45 = arith.addf %v44, %v15 : f32
        %v46 = arith.divf %v42, %v45 : f32
        affine.store %v46, %q[%i20, %j23] : memref<20x20xf32>
      }
      affine.store %cst1_0, %v[19, %i20] : memref<20x20xf32>
      affine.for %jj47 = 0 to 18 {
        %v48 = affine.load %p[%i20, 18 - %jj47] : memref<20x20xf32>
        %v49 = affine.load %v[19 - %jj47, %i20] : memref<20x20xf32>
        %v50 = arith.mulf %v48, %v49 : f32
        %v51 = affine.load %q[%i20, 18 - %jj47] : memref<20x20xf32>
        %v52 = arith.addf %v50, %v51 : f32
        affine.store %v52, %v[18 - %jj47, %i20] : memref<20x20xf32>
      }
    }
    affine.for %i53 = 1 to 19 {
      affine.store %cst1_0, %u[%i53, 0] : memref<20x20xf32>
      affine.store %cst0_0, %p[%i53, 0] : memref<20x20xf32>
      %v54 = affine.load %u[%i53, 0] : memref<20x20xf32>
      affine.store %v54, %q[%i53, 0] : memref<20x20xf32>
      affine.for %j55 = 1 to 19 {
        %v56 = affine.load %p[%i53, %j55 - 1] : memref<20x20xf32>
        %v57 = arith.mulf %v17, %v56 : f32
        %v58 = arith.addf %v57, %v18 : f32
        %v59 = arith.negf %v17 : f32
        %v60 = arith.divf %v59, %v58 : f32
        affine.store %v60, %p[%i53, %j55] : memref<20x20xf32>
        %v61 = arith.negf %v14 : f32
        %v62 = affine.load %v[%i53 - 1, %j55] : memref<20x20xf32>
        %v63 = arith.mulf %v61, %v62 : f32
        %v64 = arith.mulf %cst2_0, %v14 : f32
        %v65 = arith.addf %cst1_0, %v64 : f32
        %v66 = affine.load %v[%i53, %j55] : memref<20x20xf32>
        %v67 = arith.mulf %v65, %v66 : f32
        %v68 = arith.addf %v63, %v67 : f32
        %v69 = affine.load %v[%i53 + 1, %j55] : memref<20x20xf32>
        %v70 = arith.mulf %v14, %v69 : f32
        %v71 = arith.subf %v68, %v70 : f32
        %v72 = affine.load %q[%i53, %j55 - 1] : memref<20x20xf32>
        %v73 = arith.mulf %v17, %v72 : f32
        %v74 = arith.subf %v71, %v73 : f32
        %v75 = affine.load %p[%i53, %j55 - 1] : memref<20x20xf32>
        %v76 = arith.mulf %v17, %v75 : f32
        %v77 = arith.addf %v76, %v18 : f32
        %v78 = arith.divf %v74, %v77 : f32
        affine.store %v78, %q[%i53, %j55] : memref<20x20xf32>
      }
      affine.store %cst1_0, %u[%i53, 19] : memref<20x20xf32>
      affine.for %jj79 = 0 to 18 {
        %v80 = affine.load %p[%i53, 18 - %jj79] : memref<20x20xf32>
        %v81 = affine.load %u[%i53, 19 - %jj79] : memref<20x20xf32>
        %v82 = arith.mulf %v80, %v81 : f32
        %v83 = affine.load %q[%i53, 18 - %jj79] : memref<20x20xf32>
        %v84 = arith.addf %v82, %v83 : f32
        affine.store %v84, %u[%i53, 18 - %jj79] : memref<20x20xf32>
      }
    }
  }
  return
}
