// lower-affine and convert-scf-to-cf as mlir-opt-22: bounds with max/min
// maps, iter_args, floordiv/ceildiv/mod expansions, affine.if sets.
// RUN: diff <(silica opt --lower-affine %s) <(mlir-opt-22 --lower-affine %s)
// RUN: diff <(silica opt --lower-affine --convert-scf-to-cf %s) <(mlir-opt-22 --lower-affine --convert-scf-to-cf %s)
#set = affine_set<(d0)[s0] : (d0 - 2 >= 0, s0 - d0 - 1 >= 0, d0 mod 2 == 0)>
func.func @f(%m: memref<?xf32>, %n: index) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = max affine_map<(d0) -> (d0, 2)>(%n) to min affine_map<()[s0] -> (s0 floordiv 2, 100)>()[%n] step 2 iter_args(%acc = %z) -> f32 {
    %a = affine.load %m[%i * 2 - 1 + symbol(%n) mod 4] : memref<?xf32>
    %s = arith.addf %acc, %a : f32
    affine.if #set(%i)[%n] {
      affine.store %s, %m[%i ceildiv 3] : memref<?xf32>
    }
    affine.yield %s : f32
  }
  return %r : f32
}
