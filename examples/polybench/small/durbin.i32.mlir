// PolyBench/C 4.2 linear-algebra/solvers/durbin, SMALL dataset (N=120), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @durbin(%r: memref<120xi32> {hls.name = "r"},
    %y: memref<120xi32> {hls.name = "y"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = memref.alloc() : memref<120xi32>
  %v1 = affine.load %r[0] : memref<120xi32>
  %v3 = arith.subi %c0, %v1 : i32
  affine.store %v3, %y[0] : memref<120xi32>
  %v5 = affine.load %r[0] : memref<120xi32>
  %v6 = arith.subi %c0, %v5 : i32
  %k_r10:2 = affine.for %k7 = 1 to 120 iter_args(%alpha8 = %v6, %beta9 = %c1) -> (i32, i32) {
    %v11 = arith.muli %alpha8, %alpha8 : i32
    %v12 = arith.subi %c1, %v11 : i32
    %v13 = arith.muli %v12, %beta9 : i32
    %i_r16 = affine.for %i14 = 0 to affine_map<(d0) -> (d0)>(%k7) iter_args(%sum15 = %c0) -> (i32) {
      %v17 = affine.load %r[%k7 - %i14 - 1] : memref<120xi32>
      %v18 = affine.load %y[%i14] : memref<120xi32>
      %v19 = arith.muli %v17, %v18 : i32
      %v20 = arith.addi %sum15, %v19 : i32
      affine.yield %v20 : i32
    }
    %v21 = affine.load %r[%k7] : memref<120xi32>
    %v22 = arith.addi %v21, %i_r16 : i32
    %v23 = arith.subi %c0, %v22 : i32
    %z24 = arith.cmpi eq, %v13, %c0 : i32
    %d25 = arith.select %z24, %c1, %v13 : i32
    %v26 = arith.divsi %v23, %d25 : i32
    affine.for %i27 = 0 to affine_map<(d0) -> (d0)>(%k7) {
      %v28 = affine.load %y[%i27] : memref<120xi32>
      %v29 = affine.load %y[%k7 - %i27 - 1] : memref<120xi32>
      %v30 = arith.muli %v26, %v29 : i32
      %v31 = arith.addi %v28, %v30 : i32
      affine.store %v31, %z[%i27] : memref<120xi32>
    }
    affine.for %i32 = 0 to affine_map<(d0) -> (d0)>(%k7) {
      %v33 = affine.load %z[%i32] : memref<120xi32>
      affine.store %v33, %y[%i32] : memref<120xi32>
    }
    affine.store %v26, %y[%k7] : memref<120xi32>
    affine.yield %v26, %v13 : i32, i32
  }
  return
}
