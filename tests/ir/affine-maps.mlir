// Affine expressions are simplified and printed exactly as mlir-opt-22 does.
// RUN: diff <(silica opt --allow-unregistered-dialect %s) <(mlir-opt-22 --allow-unregistered-dialect %s)

"foo.maps"() {
  m0 = affine_map<() -> (0)>,
  m1 = affine_map<(i, j) -> (i - j, -i, j - 3, 4 + i, i * 3 - j * 2)>,
  m2 = affine_map<(d0) -> (d0 * 128 mod 64, (d0 * 128) floordiv 64, d0 ceildiv 1, (d0 + 4) mod 4)>,
  m3 = affine_map<(d0, d1)[s0, s1] -> (d0 * s0, s0 * s1, (d0 + d1) * 3, d0 - (d1 + 2))>,
  m4 = affine_map<(d0) -> (d0 - (d0 floordiv 8) * 8, (d0 mod 16) mod 4, 7 floordiv -2, -7 mod 3)>,
  m5 = affine_map<(d0, d1) -> (d0 + d0, 2 * d0 + 3 * d0, (d0 + 1) + (d1 + 2), d0 * -2 + d1)>,
  m6 = affine_map<(d0, d1)[s0] -> (-d0 + d0 + s0, d0 * 2 + d0 * -1, d0 * 3 + d0 * -3 + d1, (d0 + s0) * -1 + (d0 + s0))>,
  s0 = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 10 >= 0, d0 - d1 * 2 == 0, d1 <= s0)>,
  s1 = affine_set<() : ()>,
  order0 = affine_map<(d0, d1, d2, d3, d4)[s0, s1, s2] -> (d1 + d0, d3 + d1 + d4, d1 + 3 + d0, s1 + s0, s2 + s1 + d0, d2 + d0 + d1)>,
  order1 = affine_map<(d0, d1, d2, d3) -> (d3 + (d1 + d2), d1 * 2 + d0, d2 + d1 * 2 + d0, (d1 + d0) floordiv 2)>
} : () -> ()

// A layout that is the identity on dims is dropped even with symbols.
"foo.layout"() : () -> (memref<?xf32, affine_map<(i)[M] -> (i)>>, memref<4x4xf32, affine_map<(d0, d1)[s0] -> (d0, d1)>>)
