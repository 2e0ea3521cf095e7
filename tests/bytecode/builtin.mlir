// Builtin attributes, types and locations in bytecode: silica writes the
// bytes mlir-opt-22 writes, reads them as mlir-opt-22 does, and what it
// writes reads back to the file's IR. (MLIR's encoding of a range that
// starts at column 0 keeps only its line, `xx.line_only`'s, in both. A
// line written without a column is such a range, another location than
// its column 0, `xx.no_column`'s two.)
// RUN: silica opt --allow-unregistered-dialect --emit-bytecode %s -o %t.silica.mlirbc
// RUN: mlir-opt-22 --allow-unregistered-dialect --emit-bytecode %s -o %t.mlir-opt.mlirbc
// RUN: cmp %t.silica.mlirbc %t.mlir-opt.mlirbc
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-debuginfo %t.mlir-opt.mlirbc) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-debuginfo %t.mlir-opt.mlirbc)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-debuginfo %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-debuginfo %s)
// RUN: diff <(silica opt --allow-unregistered-dialect %t.silica.mlirbc) <(silica opt --allow-unregistered-dialect %s)
// RUN: diff <(mlir-opt-22 --allow-unregistered-dialect %t.silica.mlirbc) <(mlir-opt-22 --allow-unregistered-dialect %s)

module attributes {
  xx.dense_int = dense<[1, 2, 3]> : tensor<3xi32>,
  xx.dense_splat = dense<1.5> : tensor<2x2xf32>,
  xx.dense_bool = dense<[true, false, true]> : tensor<3xi1>,
  xx.dense_bool_splat = dense<true> : tensor<8xi1>,
  xx.dense_i7 = dense<-1> : tensor<2xi7>,
  xx.dense_i33 = dense<[1, -2]> : tensor<2xi33>,
  xx.dense_f80 = dense<[1.0, 2.0]> : tensor<2xf80>,
  xx.dense_bf16 = dense<[1.0, 2.0]> : vector<2xbf16>,
  xx.dense_complex = dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>,
  xx.dense_index = dense<[1, 2]> : tensor<2xindex>,
  xx.dense_scalar = dense<5> : tensor<i32>,
  xx.dense_empty = dense<> : tensor<0xi32>,
  xx.dense_string = dense<"x"> : tensor<2x!xx.t>,
  xx.dense_strings = dense<["a", "b"]> : tensor<2x!xx.t>,
  xx.sparse = sparse<[[0, 1]], [5]> : tensor<2x2xi32>,
  xx.array_i64 = array<i64: 1, -2>,
  xx.array_f32 = array<f32: 1.0>,
  xx.array_i1 = array<i1: true, false>,
  xx.typed_string = "s" : i32,
  xx.string = "esc\n\"aped\00",
  xx.nested_ref = @a::@b::@c,
  xx.flat_ref = @c,
  xx.unit,
  xx.half = 1.0 : f16,
  xx.nan = 0x7FC00000 : f32,
  xx.f128 = 1.5 : f128,
  xx.f8 = 0.5 : f8E4M3FN,
  xx.array = [1 : i8, true, -1 : si8, 255 : ui8, 3 : index],
  xx.wide = -3 : i128,
  xx.wider = 170141183460469231731687303715884105727 : i129,
  xx.distinct = distinct[0]<42 : i64>,
  xx.distinct_again = distinct[0]<42 : i64>,
  xx.opaque = #xx.foo<bar>,
  xx.resource = dense_resource<blob1> : tensor<2xi32>,
  xx.map = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)>,
  xx.set = affine_set<(d0) : (d0 >= 0)>,
  xx.dict = {a = 1, b = "c", d = {}},
  xx.type = (i32, memref<?xf32>) -> tuple<i1, none>
} {
  "xx.types"() : () -> (memref<4x?xf32, strided<[?, 1], offset: ?>, 3>, memref<*xf32, 1>, memref<*xi8>, memref<2x3xf32, affine_map<(d0, d1) -> (d1, d0)>>, memref<f32>, tensor<*xf64>, tensor<4x?xf32, "enc">, vector<4x[8]xf32>, vector<2xindex>, complex<f64>, tuple<i32, f32>, none, f8E4M3FN, bf16, f16, f32, f64, f80, f128, tf32, !xx.ty<1>, i7, si3, ui9, index) loc(fused<"meta">["f.mlir":1:2, "g"("h.mlir":3:4 to 5:6)])
  "xx.call_site"() : () -> () loc(callsite("a" at "b.mlir":1:1))
  "xx.fused"() : () -> () loc(fused["x.mlir":1:1, "y.mlir":2:2])
  "xx.range"() : () -> () loc("x.mlir":1:1 to :9)
  "xx.line_only"() : () -> () loc("x.mlir":4:0 to :7)
  "xx.no_column"() : () -> () loc(fused["x.mlir":7, "x.mlir":7:0, "x.mlir":0])
  "xx.unknown"() : () -> () loc(unknown)
  "xx.name"() : () -> () loc("only a name")
  "xx.props"() <{p = 1 : i32, q = [unit]}> : () -> ()
  "xx.props_again"() <{p = 1 : i32, q = [unit]}> {d = 5} : () -> ()
  "xx.graph"() ({
    %0 = "xx.use"(%1, %1, %2) : (i32, i32, i32) -> i32
    %1 = "xx.def"(%0) : (i32) -> i32
    %2 = "xx.def"(%1) : (i32) -> i32
  }) : () -> ()
}

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000",
      unused: "0x0100000001"
    }
  }
#-}
