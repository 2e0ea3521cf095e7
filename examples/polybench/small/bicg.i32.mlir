// PolyBench/C 4.2 linear-algebra/kernels/bicg, SMALL dataset (M=116, N=124), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @bicg(%A: memref<124x116xi32> {hls.name = "A"},
    %s: memref<116xi32> {hls.name = "s"},
    %q: memref<124xi32> {hls.name = "q"},
    %p: memref<116xi32> {hls.name = "p"},
    %r: memref<124xi32> {hls.name = "r"}) {
  %c0 = arith.constant 0 : i32
  affine.for %i1 = 0 to 116 {
    affine.store %c0, %s[%i1] : memref<116xi32>
  }
  affine.for %i3 = 0 to 124 {
    affine.store %c0, %q[%i3] : memref<124xi32>
    affine.for %j4 = 0 to 116 {
      %v5 = affine.load %s[%j4] : memref<116xi32>
      %v6 = affine.load %r[%i3] : memref<124xi32>
      %v7 = affine.load %A[%i3, %j4] : memref<124x116xi32>
      %v8 = arith.muli %v6, %v7 : i32
      %v9 = arith.addi %v5, %v8 : i32
      affine.store %v9, %s[%j4] : memref<116xi32>
      %v10 = affine.load %q[%i3] : memref<124xi32>
      %v11 = affine.load %A[%i3, %j4] : memref<124x116xi32>
      %v12 = affine.load %p[%j4] : memref<116xi32>
      %v13 = arith.muli %v11, %v12 : i32
      %v14 = arith.addi %v10, %v13 : i32
      affine.store %v14, %q[%i3] : memref<124xi32>
    }
  }
  return
}
