// PolyBench/C 4.2 linear-algebra/solvers/trisolv, MINI dataset (N=40), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @trisolv(%L: memref<40x40xf32> {hls.name = "L"},
    %x: memref<40xf32> {hls.name = "x"},
    %b: memref<40xf32> {hls.name = "b"}) {
  affine.for %i1 = 0 to 40 {
    %v2 = affine.load %b[%i1] : memref<40xf32>
    affine.store %v2, %x[%i1] : memref<40xf32>
    affine.for %j3 = 0 to affine_map<(d0) -> (d0)>(%i1) {
      %v4 = affine.load %x[%i1] : memref<40xf32>
      %v5 = affine.load %L[%i1, %j3] : memref<40x40xf32>
      %v6 = affine.load %x[%j3] : memref<40xf32>
      %v7 = arith.mulf %v5, %v6 : f32
      %v8 = arith.subf %v4, %v7 : f32
      affine.store %v8, %x[%i1] : memref<40xf32>
    }
    %v9 = affine.load %x[%i1] : memref<40xf32>
    %v10 = affine.load %L[%i1, %i1] : memref<40x40xf32>
    %v11 = arith.divf %v9, %v10 : f32
    affine.store %v11, %x[%i1] : memref<40xf32>
  }
  return
}
