// PolyBench/C 4.2 linear-algebra/solvers/ludcmp, SMALL dataset (N=120), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @ludcmp(%A: memref<120x120xi32> {hls.name = "A"},
    %b: memref<120xi32> {hls.name = "b"},
    %x: memref<120xi32> {hls.name = "x"},
    %y: memref<120xi32> {hls.name = "y"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  affine.for %i1 = 0 to 120 {
    affine.for %j2 = 0 to affine_map<(d0) -> (d0)>(%i1) {
      %v3 = affine.load %A[%i1, %j2] : memref<120x120xi32>
      %k_r6 = affine.for %k4 = 0 to affine_map<(d0) -> (d0)>(%j2) iter_args(%w5 = %v3) -> (i32) {
        %v7 = affine.load %A[%i1, %k4] : memref<120x120xi32>
        %v8 = affine.load %A[%k4, %j2] : memref<120x120xi32>
        %v9 = arith.muli %v7, %v8 : i32
        %v10 = arith.subi %w5, %v9 : i32
        affine.yield %v10 : i32
      }
      %v11 = affine.load %A[%j2, %j2] : memref<120x120xi32>
      %z13 = arith.cmpi eq, %v11, %c0 : i32
      %d15 = arith.select %z13, %c1, %v11 : i32
      %v16 = arith.divsi %k_r6, %d15 : i32
      affine.store %v16, %A[%i1, %j2] : memref<120x120xi32>
    }
    affine.for %j17 = affine_map<(d0) -> (d0)>(%i1) to 120 {
      %v18 = affine.load %A[%i1, %j17] : memref<120x120xi32>
      %k_r21 = affine.for %k19 = 0 to affine_map<(d0) -> (d0)>(%i1) iter_args(%w20 = %v18) -> (i32) {
        %v22 = affine.load %A[%i1, %k19] : memref<120x120xi32>
        %v23 = affine.load %A[%k19, %j17] : memref<120x120xi32>
        %v24 = arith.muli %v22, %v23 : i32
        %v25 = arith.subi %w20, %v24 : i32
        affine.yield %v25 : i32
      }
      affine.store %k_r21, %A[%i1, %j17] : memref<120x120xi32>
    }
  }
  affine.for %i26 = 0 to 120 {
    %v27 = affine.load %b[%i26] : memref<120xi32>
    %j_r30 = affine.for %j28 = 0 to affine_map<(d0) -> (d0)>(%i26) iter_args(%w29 = %v27) -> (i32) {
      %v31 = affine.load %A[%i26, %j28] : memref<120x120xi32>
      %v32 = affine.load %y[%j28] : memref<120xi32>
      %v33 = arith.muli %v31, %v32 : i32
      %v34 = arith.subi %w29, %v33 : i32
      affine.yield %v34 : i32
    }
    affine.store %j_r30, %y[%i26] : memref<120xi32>
  }
  affine.for %ii35 = 0 to 120 {
    %v36 = affine.load %y[119 - %ii35] : memref<120xi32>
    %j_r39 = affine.for %j37 = affine_map<(d0) -> (120 - d0)>(%ii35) to 120 iter_args(%w38 = %v36) -> (i32) {
      %v40 = affine.load %A[119 - %ii35, %j37] : memref<120x120xi32>
      %v41 = affine.load %x[%j37] : memref<120xi32>
      %v42 = arith.muli %v40, %v41 : i32
      %v43 = arith.subi %w38, %v42 : i32
      affine.yield %v43 : i32
    }
    %v44 = affine.load %A[119 - %ii35, 119 - %ii35] : memref<120x120xi32>
    %z45 = arith.cmpi eq, %v44, %c0 : i32
    %d46 = arith.select %z45, %c1, %v44 : i32
    %v47 = arith.divsi %j_r39, %d46 : i32
    affine.store %v47, %x[119 - %ii35] : memref<120xi32>
  }
  return
}
