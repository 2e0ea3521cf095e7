// Structured ops on tensors stay as they are through the lowerings (as in
// mlir-opt-22), and a module holding one beside a kernel on memrefs
// still co-simulates that kernel (the software side leaves out the
// functions the kernel does not call); silica hls refuses a kernel on
// tensors with a message.
// RUN: silica opt %s --convert-linalg-to-loops > %t.s
// RUN: mlir-opt-22 %s --convert-linalg-to-loops > %t.m
// RUN: diff %t.s %t.m
// RUN: FileCheck %s --check-prefix=KEPT < %t.s
// RUN: rm -rf %t.copy %t.t
// RUN: silica hls %s --top copy -o %t.copy --sim | FileCheck %s --check-prefix=SIM
// RUN: not silica hls %s --top on_tensors -o %t.t 2>&1 | FileCheck %s --check-prefix=TENSOR

// KEPT: linalg.generic
// KEPT: scf.for
// SIM: co-simulation (seed 1): 8 values match
// TENSOR: error: argument 0 has type 'tensor<4xf32>'

func.func @on_tensors(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @copy(%a: memref<4xf32>, %b: memref<4xf32>) {
  linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}
