// PolyBench/C 4.2 linear-algebra/kernels/doitgen, MINI dataset (NQ=8, NR=10, NP=12), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @doitgen(%A: memref<10x8x12xi32> {hls.name = "A"},
    %C4: memref<12x12xi32> {hls.name = "C4"},
    %sum: memref<12xi32> {hls.name = "sum"}) {
  %c0 = arith.constant 0 : i32
  affine.for %r1 = 0 to 10 {
    affine.for %q2 = 0 to 8 {
      affine.for %p3 = 0 to 12 {
        affine.store %c0, %sum[%p3] : memref<12xi32>
        affine.for %s5 = 0 to 12 {
          %v6 = affine.load %sum[%p3] : memref<12xi32>
          %v7 = affine.load %A[%r1, %q2, %s5] : memref<10x8x12xi32>
          %v8 = affine.load %C4[%s5, %p3] : memref<12x12xi32>
          %v9 = arith.muli %v7, %v8 : i32
          %v10 = arith.addi %v6, %v9 : i32
          affine.store %v10, %sum[%p3] : memref<12xi32>
        }
      }
      affine.for %p11 = 0 to 12 {
        %v12 = affine.load %sum[%p11] : memref<12xi32>
        affine.store %v12, %A[%r1, %q2, %p11] : memref<10x8x12xi32>
      }
    }
  }
  return
}
