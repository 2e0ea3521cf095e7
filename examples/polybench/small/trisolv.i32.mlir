// PolyBench/C 4.2 linear-algebra/solvers/trisolv, SMALL dataset (N=120), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @trisolv(%L: memref<120x120xi32> {hls.name = "L"},
    %x: memref<120xi32> {hls.name = "x"},
    %b: memref<120xi32> {hls.name = "b"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  affine.for %i1 = 0 to 120 {
    %v2 = affine.load %b[%i1] : memref<120xi32>
    affine.store %v2, %x[%i1] : memref<120xi32>
    affine.for %j3 = 0 to affine_map<(d0) -> (d0)>(%i1) {
      %v4 = affine.load %x[%i1] : memref<120xi32>
      %v5 = affine.load %L[%i1, %j3] : memref<120x120xi32>
      %v6 = affine.load %x[%j3] : memref<120xi32>
      %v7 = arith.muli %v5, %v6 : i32
      %v8 = arith.subi %v4, %v7 : i32
      affine.store %v8, %x[%i1] : memref<120xi32>
    }
    %v9 = affine.load %x[%i1] : memref<120xi32>
    %v10 = affine.load %L[%i1, %i1] : memref<120x120xi32>
    %z12 = arith.cmpi eq, %v10, %c0 : i32
    %d14 = arith.select %z12, %c1, %v10 : i32
    %v15 = arith.divsi %v9, %d14 : i32
    affine.store %v15, %x[%i1] : memref<120xi32>
  }
  return
}
