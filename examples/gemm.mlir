// gemm (PolyBench): C = alpha * A * B + beta * C on 16x16 i32 matrices,
// loops i/k/j as PolyBench writes them. `silica hls examples/gemm.mlir
// --top gemm -o out` pipelines the innermost loop.
func.func @gemm(%alpha: i32 {hls.name = "alpha"}, %beta: i32 {hls.name = "beta"},
                %C: memref<16x16xi32> {hls.name = "C"},
                %A: memref<16x16xi32> {hls.name = "A"},
                %B: memref<16x16xi32> {hls.name = "B"}) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %c = affine.load %C[%i, %j] : memref<16x16xi32>
      %cb = arith.muli %c, %beta : i32
      affine.store %cb, %C[%i, %j] : memref<16x16xi32>
    } {hls.label = "scale"}
    affine.for %k = 0 to 16 {
      %a = affine.load %A[%i, %k] : memref<16x16xi32>
      %aa = arith.muli %alpha, %a : i32
      affine.for %j = 0 to 16 {
        %b = affine.load %B[%k, %j] : memref<16x16xi32>
        %c = affine.load %C[%i, %j] : memref<16x16xi32>
        %p = arith.muli %aa, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<16x16xi32>
      } {hls.label = "j"}
    } {hls.label = "k"}
  } {hls.label = "i"}
  return
}
