// Splat constants are written as LLVM does: zero splats as
// `zeroinitializer` (whatever their size), vector splats as `splat (...)`,
// arrays element by element; the IR is accepted by llvm-as-22.
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: FileCheck %s < %t.ll

// CHECK: @huge = common global [4294967296 x i8] zeroinitializer
llvm.mlir.global common @huge(dense<0> : vector<4294967296xi8>) : !llvm.array<4294967296 x i8>
// CHECK: @threes = internal global <4 x i32> splat (i32 3)
llvm.mlir.global internal @threes(dense<3> : vector<4xi32>) : vector<4xi32>
// CHECK: @halves = internal global [2 x [2 x float]] {{\[}}[2 x float] [float 0x3FF8000000000000, float 0x3FF8000000000000], [2 x float] [float 0x3FF8000000000000, float 0x3FF8000000000000]]
llvm.mlir.global internal @halves(dense<1.5> : tensor<2x2xf32>) : !llvm.array<2 x array<2 x f32>>
// CHECK: @negative_zeros = internal global [2 x float] [float 0x8000000000000000, float 0x8000000000000000]
llvm.mlir.global internal @negative_zeros(dense<-0.0> : tensor<2xf32>) : !llvm.array<2 x f32>
