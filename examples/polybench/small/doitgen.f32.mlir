// PolyBench/C 4.2 linear-algebra/kernels/doitgen, SMALL dataset (NQ=20, NR=25, NP=30), f32.
// Written by examples/polybench/gen.py (do not edit; run it again).
func.func @doitgen(%A: memref<25x20x30xf32> {hls.name = "A"},
    %C4: memref<30x30xf32> {hls.name = "C4"},
    %sum: memref<30xf32> {hls.name = "sum"}) {
  %cst0_0 = arith.constant 0.0 : f32
  affine.for %r1 = 0 to 25 {
    affine.for %q2 = 0 to 20 {
      affine.for %p3 = 0 to 30 {
        affine.store %cst0_0, %sum[%p3] : memref<30xf32>
        affine.for %s5 = 0 to 30 {
          %v6 = affine.load %sum[%p3] : memref<30xf32>
          %v7 = affine.load %A[%r1, %q2, %s5] : memref<25x20x30xf32>
          %v8 = affine.load %C4[%s5, %p3] : memref<30x30xf32>
          %v9 = arith.mulf %v7, %v8 : f32
          %v10 = arith.addf %v6, %v9 : f32
          affine.store %v10, %sum[%p3] : memref<30xf32>
        }
      }
      affine.for %p11 = 0 to 30 {
        %v12 = affine.load %sum[%p11] : memref<30xf32>
        affine.store %v12, %A[%r1, %q2, %p11] : memref<25x20x30xf32>
      }
    }
  }
  return
}
