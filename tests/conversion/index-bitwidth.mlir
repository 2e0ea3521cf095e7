// `index-bitwidth=32`: index values, memref descriptor sizes and strides,
// allocation sizes and `index.sizeof` are 32-bit, as mlir-opt-22 lowers
// them.
// RUN: diff <(silica opt --finalize-memref-to-llvm=index-bitwidth=32 --convert-arith-to-llvm=index-bitwidth=32 --convert-index-to-llvm=index-bitwidth=32 %s) <(mlir-opt-22 --finalize-memref-to-llvm=index-bitwidth=32 --convert-arith-to-llvm=index-bitwidth=32 --convert-index-to-llvm=index-bitwidth=32 %s)
// RUN: diff <(silica opt --pass-pipeline='builtin.module(finalize-memref-to-llvm{index-bitwidth=32},convert-func-to-llvm{index-bitwidth=32},reconcile-unrealized-casts)' %s) <(mlir-opt-22 --pass-pipeline='builtin.module(finalize-memref-to-llvm{index-bitwidth=32},convert-func-to-llvm{index-bitwidth=32},reconcile-unrealized-casts)' %s)
// RUN: silica opt --finalize-memref-to-llvm=index-bitwidth=32 --convert-arith-to-llvm=index-bitwidth=32 --convert-index-to-llvm=index-bitwidth=32 %s | FileCheck %s
// RUN: not silica opt --convert-arith-to-llvm=index-bitwidth=99999999 %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: index-bitwidth=99999999 is not a valid integer width

// CHECK-LABEL: func.func @load
// CHECK: llvm.mlir.constant(4 : index) : i32
// CHECK: llvm.getelementptr inbounds|nuw %{{.*}}[%{{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, f32
func.func @load(%m: memref<?x4xf32>, %i: index, %j: index) -> f32 {
  %v = memref.load %m[%i, %j] : memref<?x4xf32>
  return %v : f32
}

// CHECK-LABEL: func.func @alloc
// CHECK: llvm.call @malloc(%{{.*}}) : (i32) -> !llvm.ptr
// CHECK: !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)>
func.func @alloc(%n: index) -> memref<?x8xi64> {
  %m = memref.alloc(%n) : memref<?x8xi64>
  return %m : memref<?x8xi64>
}

// CHECK-LABEL: func.func @dim
func.func @dim(%m: memref<?xf32>, %d: index) -> index {
  %c0 = arith.constant 0 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  %e = memref.dim %m, %d : memref<?xf32>
  %s = arith.addi %n, %e : index
  return %s : index
}

// CHECK-LABEL: func.func @index_ops
// CHECK: llvm.mlir.constant(32 : i32) : i32
// CHECK: llvm.mlir.constant(-1 : i32) : i32
func.func @index_ops(%a: index, %b: index) -> (index, index, i64) {
  %w = index.sizeof
  %c = index.constant 4294967295
  %s = index.add %a, %w
  %d = index.ceildivs %s, %b
  %e = index.add %d, %c
  %x = arith.index_cast %e : index to i64
  return %s, %e, %x : index, index, i64
}
