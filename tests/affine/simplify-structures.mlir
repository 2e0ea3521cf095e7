// affine-simplify-structures: affine maps simplified, integer sets
// emptied or stripped of trivially redundant constraints, then the
// affine.apply/for/if patterns and folds applied to those ops. The output
// is mlir-opt-22's.
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-simplify-structures %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-simplify-structures %s)

func.func @sets(%A: memref<64xf32>, %n: index) {
  affine.for %i = 0 to 64 {
    affine.if affine_set<(d0)[s0] : (d0 - 3 >= 0, 2 * d0 - 6 >= 0, d0 + 10 >= 0, 4 >= 0, s0 - d0 >= 0, 2 * s0 - 2 * d0 + 1 >= 0)>(%i)[%n] {
      "test.op"() : () -> ()
    }
    affine.if affine_set<(d0) : (d0 - 70 >= 0)>(%i) {
      "test.op"() : () -> ()
    }
    affine.if affine_set<(d0)[s0] : (2 * d0 - 1 == 0)>(%i)[%n] {
      "test.op"() : () -> ()
    } else {
      "test.other"() : () -> ()
    }
    affine.if affine_set<(d0)[s0] : (d0 - s0 == 0, d0 + s0 - 1 == 0, 4 * d0 - 2 * s0 + 6 == 0)>(%i)[%n] {
      "test.op"() : () -> ()
    }
  }
  return
}

// -----

func.func @maps(%A: memref<64xf32>, %n: index) {
  affine.for %i = 0 to 64 {
    %a = affine.apply affine_map<(d0) -> ((d0 * 4 + 8) floordiv 4 - d0)>(%i)
    %b = affine.apply affine_map<(d0)[s0] -> ((d0 + s0) mod 2 + (d0 + s0) floordiv 2 * 2)>(%i)[%n]
    %c = affine.apply affine_map<(d0) -> (d0 mod 64)>(%i)
    "test.use"(%a, %b, %c) : (index, index, index) -> ()
    affine.for %j = affine_map<(d0) -> (d0 * 2 - d0)>(%i) to affine_map<(d0) -> (d0 + 2 - 1)>(%i) {
      %v = affine.load %A[%j * 3 - %j * 2] : memref<64xf32>
      "test.use"(%v) : (f32) -> ()
    }
  }
  return
}
