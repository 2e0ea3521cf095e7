// Kernels in linalg, as ML front ends leave them, taken by silica hls
// directly (lowered to affine loops first, as
// convert-linalg-to-affine-loops writes them) and co-simulated against
// the function as written: a zero-filled i32 matmul, a 1-D convolution as
// a linalg.generic with an offset map and linalg.index, and an f32
// matvec followed by a dot product, a convolution then a max pooling as
// torch-mlir writes them, and a matmul into a buffer the kernel allocates
// and returns (as Allo's templates do).
// RUN: rm -rf %t.mm %t.conv %t.mv %t.cnn %t.gemm
// RUN: silica hls %s --top mm -o %t.mm --sim | FileCheck %s --check-prefix=MM
// RUN: silica hls %s --top conv -o %t.conv --sim | FileCheck %s --check-prefix=CONV
// RUN: silica hls %s --top mv -o %t.mv --sim | FileCheck %s --check-prefix=MV
// RUN: silica hls %s --top cnn -o %t.cnn --sim | FileCheck %s --check-prefix=CNN
// RUN: silica hls %s --top gemm -o %t.gemm --sim | FileCheck %s --check-prefix=GEMM

// MM: co-simulation (seed 1): 104 values match
// MM: mm/1/0/0: trip 6, pipelined
// CONV: co-simulation (seed 1): 17 values match
// MV: co-simulation (seed 1): 45 values match
// CNN: co-simulation (seed 1): 243 values match
// GEMM: co-simulation (seed 1): 47 values match

func.func @mm(%A: memref<4x6xi32>, %B: memref<6x8xi32>, %C: memref<4x8xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%C : memref<4x8xi32>)
  linalg.matmul ins(%A, %B : memref<4x6xi32>, memref<6x8xi32>) outs(%C : memref<4x8xi32>)
  return
}

#in = affine_map<(d0, d1) -> (d0 + d1)>
#w = affine_map<(d0, d1) -> (d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @conv(%x: memref<8xi16>, %w: memref<3xi16>, %y: memref<6xi16>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "reduction"]} ins(%x, %w : memref<8xi16>, memref<3xi16>) outs(%y : memref<6xi16>) {
  ^bb0(%a: i16, %b: i16, %acc: i16):
    %k = linalg.index 1 : index
    %k16 = arith.index_cast %k : index to i16
    %p = arith.muli %a, %b : i16
    %q = arith.addi %p, %k16 : i16
    %s = arith.addi %acc, %q : i16
    linalg.yield %s : i16
  }
  return
}

func.func @mv(%A: memref<4x8xf32>, %x: memref<8xf32>, %y: memref<4xf32>, %d: memref<f32>) {
  linalg.matvec ins(%A, %x : memref<4x8xf32>, memref<8xf32>) outs(%y : memref<4xf32>)
  linalg.dot ins(%y, %y : memref<4xf32>, memref<4xf32>) outs(%d : memref<f32>)
  return
}

func.func @cnn(%I: memref<1x2x7x7xi16>, %F: memref<3x2x3x3xi16>, %C: memref<1x3x5x5xi16>, %W: memref<2x2xi16>, %P: memref<1x3x2x2xi16>) {
  %zero = arith.constant 0 : i16
  linalg.fill ins(%zero : i16) outs(%C : memref<1x3x5x5xi16>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%I, %F : memref<1x2x7x7xi16>, memref<3x2x3x3xi16>) outs(%C : memref<1x3x5x5xi16>)
  %low = arith.constant -32768 : i16
  linalg.fill ins(%low : i16) outs(%P : memref<1x3x2x2xi16>)
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%C, %W : memref<1x3x5x5xi16>, memref<2x2xi16>) outs(%P : memref<1x3x2x2xi16>)
  return
}

func.func @gemm(%A: memref<4x5xf32>, %B: memref<5x3xf32>) -> memref<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<4x3xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<4x3xf32>)
  linalg.matmul ins(%A, %B : memref<4x5xf32>, memref<5x3xf32>) outs(%C : memref<4x3xf32>)
  return %C : memref<4x3xf32>
}
