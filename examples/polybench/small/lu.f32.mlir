// PolyBench/C 4.2 linear-algebra/solvers/lu, SMALL dataset (N=120), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @lu(%A: memref<120x120xf32> {hls.name = "A"}) {
  affine.for %i1 = 0 to 120 {
    affine.for %j2 = 0 to affine_map<(d0) -> (d0)>(%i1) {
      affine.for %k3 = 0 to affine_map<(d0) -> (d0)>(%j2) {
        %v4 = affine.load %A[%i1, %j2] : memref<120x120xf32>
        %v5 = affine.load %A[%i1, %k3] : memref<120x120xf32>
        %v6 = affine.load %A[%k3, %j2] : memref<120x120xf32>
        %v7 = arith.mulf %v5, %v6 : f32
        %v8 = arith.subf %v4, %v7 : f32
        affine.store %v8, %A[%i1, %j2] : memref<120x120xf32>
      }
      %v9 = affine.load %A[%i1, %j2] : memref<120x120xf32>
      %v10 = affine.load %A[%j2, %j2] : memref<120x120xf32>
      %v11 = arith.divf %v9, %v10 : f32
      affine.store %v11, %A[%i1, %j2] : memref<120x120xf32>
    }
    affine.for %j12 = affine_map<(d0) -> (d0)>(%i1) to 120 {
      affine.for %k13 = 0 to affine_map<(d0) -> (d0)>(%i1) {
        %v14 = affine.load %A[%i1, %j12] : memref<120x120xf32>
        %v15 = affine.load %A[%i1, %k13] : memref<120x120xf32>
        %v16 = affine.load %A[%k13, %j12] : memref<120x120xf32>
        %v17 = arith.mulf %v15, %v16 : f32
        %v18 = arith.subf %v14, %v17 : f32
        affine.store %v18, %A[%i1, %j12] : memref<120x120xf32>
      }
    }
  }
  return
}
