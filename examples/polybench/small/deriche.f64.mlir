// PolyBench/C 4.2 medley/deriche, SMALL dataset (W=192, H=128), f64.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @deriche(%alpha: f64 {hls.name = "alpha"},
    %imgIn: memref<192x128xf64> {hls.name = "imgIn"},
    %imgOut: memref<192x128xf64> {hls.name = "imgOut"},
    %y1: memref<192x128xf64> {hls.name = "y1"},
    %y2: memref<192x128xf64> {hls.name = "y2"}) {
  %cst1_0 = arith.constant 1.0 : f64
  %cst2_0 = arith.constant 2.0 : f64
  %cstm2_0 = arith.constant -2.0 : f64
  %cst0_0 = arith.constant 0.0 : f64
  %v3 = arith.negf %alpha : f64
  %v4 = math.exp %v3 : f64
  %v5 = arith.subf %cst1_0, %v4 : f64
  %v6 = math.exp %v3 : f64
  %v7 = arith.subf %cst1_0, %v6 : f64
  %v8 = arith.mulf %v5, %v7 : f64
  %v9 = math.exp %v3 : f64
  %v10 = arith.mulf %cst2_0, %alpha : f64
  %v11 = arith.mulf %v10, %v9 : f64
  %v12 = arith.addf %cst1_0, %v11 : f64
  %v13 = arith.mulf %cst2_0, %alpha : f64
  %v14 = math.exp %v13 : f64
  %v15 = arith.subf %v12, %v14 : f64
  %v16 = arith.divf %v8, %v15 : f64
  %v17 = arith.negf %alpha : f64
  %v18 = math.exp %v17 : f64
  %v19 = arith.mulf %v16, %v18 : f64
  %v20 = arith.subf %alpha, %cst1_0 : f64
  %v21 = arith.mulf %v19, %v20 : f64
  %v22 = arith.negf %alpha : f64
  %v23 = math.exp %v22 : f64
  %v24 = arith.mulf %v16, %v23 : f64
  %v25 = arith.addf %alpha, %cst1_0 : f64
  %v26 = arith.mulf %v24, %v25 : f64
  %v27 = arith.negf %v16 : f64
  %v29 = arith.mulf %cstm2_0, %alpha : f64
  %v30 = math.exp %v29 : f64
  %v31 = arith.mulf %v27, %v30 : f64
  %v32 = arith.negf %alpha : f64
  %v33 = math.powf %cst2_0, %v32 : f64
  %v34 = arith.mulf %cstm2_0, %alpha : f64
  %v35 = math.exp %v34 : f64
  %v36 = arith.negf %v35 : f64
  affine.for %i38 = 0 to 192 {
    %j_r43:3 = affine.for %j39 = 0 to 128 iter_args(%ym140 = %cst0_0, %ym241 = %cst0_0, %xm142 = %cst0_0) -> (f64, f64, f64) {
      %v44 = affine.load %imgIn[%i38, %j39] : memref<192x128xf64>
      %v45 = arith.mulf %v16, %v44 : f64
      %v46 = arith.mulf %v21, %xm142 : f64
      %v47 = arith.addf %v45, %v46 : f64
      %v48 = arith.mulf %v33, %ym140 : f64
      %v49 = arith.addf %v47, %v48 : f64
      %v50 = arith.mulf %v36, %ym241 : f64
      %v51 = arith.addf %v49, %v50 : f64
      affine.store %v51, %y1[%i38, %j39] : memref<192x128xf64>
      %v52 = affine.load %imgIn[%i38, %j39] : memref<192x128xf64>
      %v53 = affine.load %y1[%i38, %j39] : memref<192x128xf64>
      affine.yield %v53, %ym140, %v52 : f64, f64, f64
    }
  }
  affine.for %i54 = 0 to 192 {
    %jj_r60:4 = affine.for %jj55 = 0 to 128 iter_args(%yp156 = %cst0_0, %yp257 = %cst0_0, %xp158 = %cst0_0, %xp259 = %cst0_0) -> (f64, f64, f64, f64) {
      %v61 = arith.mulf %v26, %xp158 : f64
      %v62 = arith.mulf %v31, %xp259 : f64
      %v63 = arith.addf %v61, %v62 : f64
      %v64 = arith.mulf %v33, %yp156 : f64
      %v65 = arith.addf %v63, %v64 : f64
      %v66 = arith.mulf %v36, %yp257 : f64
      %v67 = arith.addf %v65, %v66 : f64
      affine.store %v67, %y2[%i54, 127 - %jj55] : memref<192x128xf64>
      %v68 = affine.load %imgIn[%i54, 127 - %jj55] : memref<192x128xf64>
      %v69 = affine.load %y2[%i54, 127 - %jj55] : memref<192x128xf64>
      affine.yield %v69, %yp156, %v68, %xp158 : f64, f64, f64, f64
    }
  }
  affine.for %i70 = 0 to 192 {
    affine.for %j71 = 0 to 128 {
      %v72 = affine.load %y1[%i70, %j71] : memref<192x128xf64>
      %v73 = affine.load %y2[%i70, %j71] : memref<192x128xf64>
      %v74 = arith.addf %v72, %v73 : f64
      %v75 = arith.mulf %cst1_0, %v74 : f64
      affine.store %v75, %imgOut[%i70, %j71] : memref<192x128xf64>
    }
  }
  affine.for %j76 = 0 to 128 {
    %i_r81:3 = affine.for %i77 = 0 to 192 iter_args(%tm178 = %cst0_0, %ym179 = %cst0_0, %ym280 = %cst0_0) -> (f64, f64, f64) {
      %v82 = affine.load %imgOut[%i77, %j76] : memref<192x128xf64>
      %v83 = arith.mulf %v16, %v82 : f64
      %v84 = arith.mulf %v21, %tm178 : f64
      %v85 = arith.addf %v83, %v84 : f64
      %v86 = arith.mulf %v33, %ym179 : f64
      %v87 = arith.addf %v85, %v86 : f64
      %v88 = arith.mulf %v36, %ym280 : f64
      %v89 = arith.addf %v87, %v88 : f64
      affine.store %v89, %y1[%i77, %j76] : memref<192x128xf64>
      %v90 = affine.load %imgOut[%i77, %j76] : memref<192x128xf64>
      %v91 = affine.load %y1[%i77, %j76] : memref<192x128xf64>
      affine.yield %v90, %v91, %ym179 : f64, f64, f64
    }
  }
  affine.for %j92 = 0 to 128 {
    %ii_r98:4 = affine.for %ii93 = 0 to 192 iter_args(%tp194 = %cst0_0, %tp295 = %cst0_0, %yp196 = %cst0_0, %yp297 = %cst0_0) -> (f64, f64, f64, f64) {
      %v99 = arith.mulf %v26, %tp194 : f64
      %v100 = arith.mulf %v31, %tp295 : f64
      %v101 = arith.addf %v99, %v100 : f64
      %v102 = arith.mulf %v33, %yp196 : f64
      %v103 = arith.addf %v101, %v102 : f64
      %v104 = arith.mulf %v36, %yp297 : f64
      %v105 = arith.addf %v103, %v104 : f64
      affine.store %v105, %y2[191 - %ii93, %j92] : memref<192x128xf64>
      %v106 = affine.load %imgOut[191 - %ii93, %j92] : memref<192x128xf64>
      %v107 = affine.load %y2[191 - %ii93, %j92] : memref<192x128xf64>
      affine.yield %v106, %tp194, %v107, %yp196 : f64, f64, f64, f64
    }
  }
  affine.for %i108 = 0 to 192 {
    affine.for %j109 = 0 to 128 {
      %v110 = affine.load %y1[%i108, %j109] : memref<192x128xf64>
      %v111 = affine.load %y2[%i108, %j109] : memref<192x128xf64>
      %v112 = arith.addf %v110, %v111 : f64
      %v113 = arith.mulf %cst1_0, %v112 : f64
      affine.store %v113, %imgOut[%i108, %j109] : memref<192x128xf64>
    }
  }
  return
}
