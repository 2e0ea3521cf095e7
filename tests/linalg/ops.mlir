// The linalg ops on memrefs print as mlir-opt-22 prints them, read back
// by it the same, and lower to the affine loops it writes: fill and
// matmul (f32), matvec with a discardable attribute, dot on a rank-0
// output, batch_matmul, copy, a generic with a non-trivial map,
// linalg.index, library_call and attrs, and the convolutions and
// poolings (grouped and depthwise too) with strides and dilations; to scf loops too, with the
// bounds' constants uniqued and hoisted as MLIR's folder does.
// RUN: silica opt %s > %t.s
// RUN: mlir-opt-22 %s > %t.m
// RUN: diff %t.s %t.m
// RUN: mlir-opt-22 %t.s | diff %t.m -
// RUN: silica opt %s --convert-linalg-to-affine-loops > %t.sl
// RUN: mlir-opt-22 %s --convert-linalg-to-affine-loops > %t.ml
// RUN: diff %t.sl %t.ml
// RUN: silica opt %s --convert-linalg-to-loops > %t.sc
// RUN: mlir-opt-22 %s --convert-linalg-to-loops > %t.mc
// RUN: diff %t.sc %t.mc
// RUN: FileCheck %s --check-prefix=SCF < %t.sc
// RUN: FileCheck %s < %t.sl

// SCF-LABEL: func.func @mm(
// SCF-NEXT: %c8 = arith.constant 8 : index
// SCF-NEXT: %cst = arith.constant 0.000000e+00 : f32
// SCF-NEXT: %c0 = arith.constant 0 : index
// SCF: scf.for %arg4 = %c0 to %c4 step %c1 {
// SCF-LABEL: func.func @e(
// SCF-NEXT: %c3 = arith.constant 3 : index
// CHECK-LABEL: func.func @mm(
// CHECK: affine.store %cst, %arg2[%arg4, %arg5] : memref<4x16xf32>
// CHECK: %[[A:.*]] = affine.load %arg0[%arg4, %arg6] : memref<4x8xf32>
// CHECK-NEXT: %[[B:.*]] = affine.load %arg1[%arg6, %arg5] : memref<8x16xf32>
// CHECK-NEXT: %[[C:.*]] = affine.load %arg2[%arg4, %arg5] : memref<4x16xf32>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[C]], %[[M]] : f32
// CHECK-NEXT: affine.store %[[S]], %arg2[%arg4, %arg5] : memref<4x16xf32>
// CHECK-LABEL: func.func @k(
// CHECK: affine.apply #map(%arg9, %arg10)
// CHECK-LABEL: func.func @conv(
// CHECK: arith.maximumf
// CHECK-LABEL: func.func @more(
// CHECK: arith.maxsi
func.func @mm(%A: memref<4x8xf32>, %B: memref<8x16xf32>, %C: memref<4x16xf32>, %x: memref<16xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%C : memref<4x16xf32>)
  linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x16xf32>) outs(%C : memref<4x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["parallel", "reduction"]} ins(%C : memref<4x16xf32>) outs(%x : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  linalg.copy ins(%x : memref<16xf32>) outs(%x : memref<16xf32>)
  return
}

func.func @k(%A: memref<4x8xi32>, %x: memref<8xi32>, %y: memref<4xi32>, %d: memref<i32>, %B: memref<2x3x4xf32>, %C: memref<2x4x5xf32>, %D: memref<2x3x5xf32>, %w: memref<3xi32>, %o: memref<6xi32>) {
  linalg.matvec {foo = 1 : i32} ins(%A, %x : memref<4x8xi32>, memref<8xi32>) outs(%y : memref<4xi32>)
  linalg.dot ins(%x, %x : memref<8xi32>, memref<8xi32>) outs(%d : memref<i32>)
  linalg.batch_matmul ins(%B, %C : memref<2x3x4xf32>, memref<2x4x5xf32>) outs(%D : memref<2x3x5xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], library_call = "foo"} ins(%x, %w : memref<8xi32>, memref<3xi32>) outs(%o : memref<6xi32>) attrs = {bar = 2} {
  ^bb0(%in: i32, %in2: i32, %out: i32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %m = arith.muli %in, %in2 : i32
    %m2 = arith.addi %m, %ii : i32
    %s = arith.addi %m2, %out : i32
    linalg.yield %s : i32
  }
  return
}

func.func @conv(%I: memref<1x2x6x6xf32>, %F: memref<3x2x3x3xf32>, %O: memref<1x3x4x4xf32>, %W: memref<2x2xf32>, %P: memref<1x2x5x5xf32>, %I2: memref<1x6x6x2xi32>, %F2: memref<3x3x2x4xi32>, %O2: memref<1x2x2x4xi32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%I, %F : memref<1x2x6x6xf32>, memref<3x2x3x3xf32>) outs(%O : memref<1x3x4x4xf32>)
  linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%I, %W : memref<1x2x6x6xf32>, memref<2x2xf32>) outs(%P : memref<1x2x5x5xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%I2, %F2 : memref<1x6x6x2xi32>, memref<3x3x2x4xi32>) outs(%O2 : memref<1x2x2x4xi32>)
  return
}

func.func @more(%I: memref<6x7xi16>, %F: memref<3x2xi16>, %O: memref<4x6xi16>, %X: memref<1x9x9x3xi32>, %W: memref<2x2xi32>, %Y: memref<1x3x3x3xi32>, %Z: memref<1x3x9x9xf32>, %V: memref<3x3xf32>, %U: memref<1x3x7x7xf32>) {
  linalg.conv_2d ins(%I, %F : memref<6x7xi16>, memref<3x2xi16>) outs(%O : memref<4x6xi16>)
  linalg.pooling_nhwc_max {dilations = dense<2> : tensor<2xi64>, strides = dense<[3, 2]> : tensor<2xi64>} ins(%X, %W : memref<1x9x9x3xi32>, memref<2x2xi32>) outs(%Y : memref<1x3x3x3xi32>)
  linalg.pooling_nhwc_sum ins(%X, %W : memref<1x9x9x3xi32>, memref<2x2xi32>) outs(%Y : memref<1x3x3x3xi32>)
  linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%Z, %V : memref<1x3x9x9xf32>, memref<3x3xf32>) outs(%U : memref<1x3x7x7xf32>)
  return
}

func.func @e(%x: memref<8xi32>, %y: memref<4x3xi32>, %k: i32) {
  %c = arith.addi %k, %k : i32
  linalg.fill ins(%c : i32) outs(%x : memref<8xi32>)
  linalg.fill ins(%k : i32) outs(%y : memref<4x3xi32>)
  return
}

func.func @f(%I: memref<1x2x6x6xf32>, %F: memref<2x3x3xf32>, %O: memref<1x2x4x4xf32>, %J: memref<1x6x6x2xf32>, %G: memref<3x3x2xf32>, %P: memref<1x4x4x2xf32>, %K: memref<1x2x3x6x6xf32>, %H: memref<2x4x3x3x3xf32>, %Q: memref<1x2x4x4x4xf32>, %H2: memref<4x2x3x3x3xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%I, %F : memref<1x2x6x6xf32>, memref<2x3x3xf32>) outs(%O : memref<1x2x4x4xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%J, %G : memref<1x6x6x2xf32>, memref<3x3x2xf32>) outs(%P : memref<1x4x4x2xf32>)
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%K, %H : memref<1x2x3x6x6xf32>, memref<2x4x3x3x3xf32>) outs(%Q : memref<1x2x4x4x4xf32>)
  linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%K, %H2 : memref<1x2x3x6x6xf32>, memref<4x2x3x3x3xf32>) outs(%Q : memref<1x2x4x4x4xf32>)
  return
}
