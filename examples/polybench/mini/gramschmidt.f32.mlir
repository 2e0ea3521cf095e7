// PolyBench/C 4.2 linear-algebra/solvers/gramschmidt, MINI dataset (M=20, N=30), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @gramschmidt(%A: memref<20x30xf32> {hls.name = "A"},
    %R: memref<30x30xf32> {hls.name = "R"},
    %Q: memref<20x30xf32> {hls.name = "Q"}) {
  %cst0_0 = arith.constant 0.0 : f32
  affine.for %k1 = 0 to 30 {
    %i_r5 = affine.for %i3 = 0 to 20 iter_args(%nrm4 = %cst0_0) -> (f32) {
      %v6 = affine.load %A[%i3, %k1] : memref<20x30xf32>
      %v7 = affine.load %A[%i3, %k1] : memref<20x30xf32>
      %v8 = arith.mulf %v6, %v7 : f32
      %v9 = arith.addf %nrm4, %v8 : f32
      affine.yield %v9 : f32
    }
    %v10 = math.sqrt %i_r5 : f32
    affine.store %v10, %R[%k1, %k1] : memref<30x30xf32>
    affine.for %i11 = 0 to 20 {
      %v12 = affine.load %A[%i11, %k1] : memref<20x30xf32>
      %v13 = affine.load %R[%k1, %k1] : memref<30x30xf32>
      %v14 = arith.divf %v12, %v13 : f32
      affine.store %v14, %Q[%i11, %k1] : memref<20x30xf32>
    }
    affine.for %j15 = affine_map<(d0) -> (d0 + 1)>(%k1) to 30 {
      affine.store %cst0_0, %R[%k1, %j15] : memref<30x30xf32>
      affine.for %i16 = 0 to 20 {
        %v17 = affine.load %R[%k1, %j15] : memref<30x30xf32>
        %v18 = affine.load %Q[%i16, %k1] : memref<20x30xf32>
        %v19 = affine.load %A[%i16, %j15] : memref<20x30xf32>
        %v20 = arith.mulf %v18, %v19 : f32
        %v21 = arith.addf %v17, %v20 : f32
        affine.store %v21, %R[%k1, %j15] : memref<30x30xf32>
      }
      affine.for %i22 = 0 to 20 {
        %v23 = affine.load %A[%i22, %j15] : memref<20x30xf32>
        %v24 = affine.load %Q[%i22, %k1] : memref<20x30xf32>
        %v25 = affine.load %R[%k1, %j15] : memref<30x30xf32>
        %v26 = arith.mulf %v24, %v25 : f32
        %v27 = arith.subf %v23, %v26 : f32
        affine.store %v27, %A[%i22, %j15] : memref<20x30xf32>
      }
    }
  }
  return
}
