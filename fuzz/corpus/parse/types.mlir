// Every builtin type, printed exactly as mlir-opt-22 prints it.
// RUN: diff <(silica opt --allow-unregistered-dialect %s) <(mlir-opt-22 --allow-unregistered-dialect %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-op-generic %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-op-generic %s)

!alias = tensor<4x?xf32>
"foo.types"() {
  ints = [i1, i7, i64, si8, ui32, i16777215, index],
  floats = [f16, bf16, f32, f64, f80, f128, tf32, f8E5M2, f8E4M3, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ, f8E3M4, f8E8M0FNU, f6E2M3FN, f6E3M2FN, f4E2M1FN],
  other = [none, complex<f32>, complex<i8>, tuple<>, tuple<i32, tuple<f32>>],
  funcs = [() -> (), (i32) -> i32, (i32, f32) -> (i1, i2), () -> (() -> ())],
  vectors = [vector<4xf32>, vector<2x3xi8>, vector<[4]xf32>, vector<2x[8]xindex>],
  tensors = [tensor<f32>, tensor<4x?xf32>, tensor<*xi8>, tensor<0x4xf32>, !alias, tensor<4xf32, "enc">],
  memrefs = [memref<f32>, memref<4x?xf32>, memref<4xf32, 1>, memref<4xf32, 0>, memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>,
             memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>, memref<?x?xf32, strided<[?, 1], offset: ?>>,
             memref<4xf32, strided<[1]>>, memref<*xf32>, memref<*xf32, 2>],
  dialect = [!foo.ty, !foo.ty<"x", [1, 2]>, !foo<"opaque body">, !foo.nested<a<b>>]
} : () -> ()
