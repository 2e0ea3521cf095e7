// Builtin attributes, printed exactly as mlir-opt-22 prints them.
// RUN: diff <(silica opt --allow-unregistered-dialect %s) <(mlir-opt-22 --allow-unregistered-dialect %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-op-generic %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-op-generic %s)

#alias = [1, 2]
"foo.attrs"() {
  unit_attr,
  "quoted key" = 1,
  bools = [true, false, 1 : i1, 0 : i1],
  ints = [0, -1, 255 : i8, -128 : i8, 200 : ui8, -5 : si8, 123456789012345678901234567890 : i128, 7 : index, 0x10 : i32],
  floats = [1.0, 0.1 : f32, -0.0 : f64, 2.5 : f16, 1.0e10 : bf16, 3.14159 : f64, 0x7FC00000 : f32, 0x7FF0000000000000 : f64, 448.0 : f8E4M3FN, 0.123456789],
  strings = ["plain", "esc\n\t\"\\", "\00\FF", "typed" : i32],
  syms = [@a, @"q u", @a::@b::@c],
  types = [i32, !foo.t],
  dict = {z = 1, a = {nested = unit}},
  arrays = [[], [[1]], #alias],
  dense_arrays = [array<i32>, array<i32: 1, -2>, array<i1: true, false>, array<f32: 1.0, 2.5>, array<i64: 9>],
  dense = [dense<1> : tensor<4xi32>, dense<[1, 2]> : tensor<2xi8>, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>,
           dense<true> : vector<2xi1>, dense<> : tensor<0xi32>, dense<1> : tensor<0xi32>, dense<1.0> : tensor<0x3xf32>,
           dense<(1, 2)> : tensor<complex<i32>>,
           dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>, dense<"0x0100000002000000"> : tensor<2xi32>,
           dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, dense<"foo"> : tensor<2x!foo.str>, dense<["a", "b"]> : tensor<2x!foo.str>],
  sparse = sparse<[[0, 0], [1, 2]], [1, 5]> : tensor<3x4xi32>,
  strided = [strided<[1, 2]>, strided<[?, 1], offset: ?>, strided<[], offset: 5>],
  dialect = [#foo.attr, #foo.attr<"x">, #foo<"opaque body">, #foo.typed : i32],
  maps = [affine_map<(d0) -> (d0)>, affine_map<(d0, d1)[s0] -> (d0 + s0, d1 * 2, d0 floordiv 4)>, affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 == 0)>],
  type_attr = tensor<4xf32>
} : () -> ()
