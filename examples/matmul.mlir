// A matrix multiplication as an affine loop nest, as front ends such as
// mlir-opt's affine tooling produce it: C[i, j] += A[i, k] * B[k, j] with
// an index computation the canonicalizer folds and a loop-invariant scale.
func.func @matmul(%A: memref<16x8xf32>, %B: memref<8x32xf32>, %C: memref<16x32xf32>, %alpha: f32) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 8 {
        %scale = arith.mulf %alpha, %one : f32
        %kk = affine.apply affine_map<(d0) -> (d0 + 0)>(%k)
        %a = affine.load %A[%i, %kk] : memref<16x8xf32>
        %b = affine.load %B[%kk, %j] : memref<8x32xf32>
        %c = affine.load %C[%i, %j] : memref<16x32xf32>
        %p = arith.mulf %a, %b : f32
        %q = arith.mulf %p, %scale : f32
        %s = arith.addf %c, %q : f32
        affine.store %s, %C[%i, %j] : memref<16x32xf32>
      }
    }
  }
  return
}
