// Semi-affine maps (products of symbols, divisions and remainders by
// symbols) through affine-simplify-structures and canonicalize: divisions
// by a symbol that divides the dividend carried out, the flattened sum
// rebuilt in MLIR's order of dims and symbols, and the construction-time
// rules (products of symbols ordered, `a + e - (e floordiv c) * c` as
// `a + e mod c`). The output is mlir-opt-22's.
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --affine-simplify-structures %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --affine-simplify-structures %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --split-input-file --canonicalize %s) <(mlir-opt-22 --allow-unregistered-dialect --split-input-file --canonicalize %s)

func.func @divided_by_symbol(%a: index, %b: index, %c: index) -> (index, index, index, index, index) {
  %0 = affine.apply affine_map<()[s0, s1] -> ((s0 * s1 * 3 + s1 * 7) floordiv s1)>()[%a, %b]
  %1 = affine.apply affine_map<()[s0, s1] -> ((s0 * s1 + s1 * 5) mod s1)>()[%a, %b]
  %2 = affine.apply affine_map<()[s0, s1] -> ((s1 * 10 + (s1 * 4) ceildiv 8) ceildiv s1)>()[%a, %b]
  %3 = affine.apply affine_map<(d0)[s0] -> ((d0 * s0 + s0) floordiv s0)>(%c)[%a]
  %4 = affine.apply affine_map<()[s0, s1] -> ((s0 * s1 + 3) floordiv s1)>()[%a, %b]
  return %0, %1, %2, %3, %4 : index, index, index, index, index
}

// -----

func.func @not_divided(%a: index, %b: index) -> (index, index, index) {
  // A division below a product does not commute with the outer one.
  %0 = affine.apply affine_map<()[s0] -> ((((s0 * 6) floordiv 4) * 3 + s0 * 5) floordiv s0)>()[%a]
  %1 = affine.apply affine_map<()[s0, s1] -> ((s0 floordiv s1) floordiv s1)>()[%a, %b]
  %2 = affine.apply affine_map<()[s0, s1] -> ((s0 ceildiv s1 + s1) floordiv s1)>()[%a, %b]
  return %0, %1, %2 : index, index, index
}

// -----

func.func @mod_of_mod_subtraction(%a: index, %b: index, %c: index) -> (index, index) {
  %0 = affine.apply affine_map<()[s0, s1, s2] -> ((s2 + s0 - s0 mod s1 - s2) mod s1)>()[%a, %b, %c]
  %1 = affine.apply affine_map<()[s0, s1] -> ((s0 * 2 - (s0 * 2) mod s1) mod s1)>()[%a, %b]
  return %0, %1 : index, index
}

// -----

func.func @sum_order(%a: index, %b: index, %c: index, %d: index) -> (index, index, index, index) {
  %0 = affine.apply affine_map<()[s0, s1, s2, s3] -> (s3 * s2 + s1 + s2 * s0 + s3 + s1 * s0 - s1 * s0)>()[%a, %b, %c, %d]
  %1 = affine.apply affine_map<()[s0, s1, s2] -> (s2 floordiv 3 + s1 * s2 + (s0 mod 4) * 2 + s1 - s2 * s1 * 2)>()[%a, %b, %c]
  %2 = affine.apply affine_map<()[s0, s1, s2] -> ((s0 + s1) mod s2 + s1 * 3 - (s1 + s0) mod s2 + (s0 - s1) floordiv s2)>()[%a, %b, %c]
  %3 = affine.apply affine_map<()[s0, s1, s2] -> (s2 * s1 * s0 + s0 * (s1 + 1))>()[%a, %b, %c]
  return %0, %1, %2, %3 : index, index, index, index
}

// -----

func.func @in_loops(%A: memref<?xf32>, %n: index, %m: index) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 20 {
      %0 = affine.apply affine_map<(d0, d1)[s0, s1] -> (d1 * s1 + d0 * s0 + d0 + (d1 floordiv 2) * 2 + d1 mod 2)>(%i, %j)[%n, %m]
      %1 = affine.apply affine_map<(d0, d1)[s0] -> ((d0 * s0 + d1 * s0) mod s0 + (d0 + d1 * s0) floordiv s0)>(%i, %j)[%n]
      %v = affine.load %A[%0] : memref<?xf32>
      "test.use"(%v, %1) : (f32, index) -> ()
    }
  }
  return
}

// -----

func.func @construction(%a: index, %b: index, %c: index) -> (index, index, index) {
  %0 = affine.apply affine_map<(d0, d1)[s0] -> (d0 + d1 + s0 - (s0 floordiv 4) * 4)>(%a, %b)[%c]
  %1 = affine.apply affine_map<(d0, d1)[s0] -> (d0 + s0 + (d1 floordiv 3) * -3)>(%a, %b)[%c]
  %2 = affine.apply affine_map<()[s0, s1, s2] -> (s2 * s1 + s1 * s2 + s1 * s0)>()[%a, %b, %c]
  return %0, %1, %2 : index, index, index
}
