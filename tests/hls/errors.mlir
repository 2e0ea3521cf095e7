// Bad input: a diagnostic at the offending op or argument, exit 1, and
// nothing written to -o.
// RUN: rm -rf %t.d
// RUN: not silica hls %s --top unsupported -o %t.d 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not silica hls %s --top dynamic -o %t.d 2>&1 | FileCheck %s --check-prefix=DYN
// RUN: not silica hls %s --top strided -o %t.d 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: not silica hls %s --top floats -o %t.d 2>&1 | FileCheck %s --check-prefix=FLOAT
// RUN: not silica hls %s --top nothere -o %t.d 2>&1 | FileCheck %s --check-prefix=TOP
// RUN: not silica hls %s --top unsupported --target xc7 -o %t.d 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: test ! -e %t.d

// OP: errors.mlir:[[# @LINE + 4]]:8: error: 'scf.while' is not supported by silica hls
func.func @unsupported(%a: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi slt, %i, %c4 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %v = memref.load %a[%j] : memref<4xi32>
    memref.store %v, %a[%j] : memref<4xi32>
    %c1 = arith.constant 1 : index
    %n = arith.addi %j, %c1 : index
    scf.yield %n : index
  }
  return
}

// DYN: errors.mlir:[[# @LINE + 1]]:20: error: memref 'memref<?xi32>' has a dynamic shape; silica hls needs static shapes
func.func @dynamic(%a: memref<?xi32>) {
  return
}

// LAYOUT: error: memref 'memref<4xi32, strided<[2]>>' has a non-identity layout; silica hls needs identity layouts
func.func @strided(%a: memref<4xi32, strided<[2]>>) {
  return
}

// FLOAT: error: memref 'memref<4xf16>' has element type 'f16'; silica hls supports integer elements of 1 to 128 bits, f32 and f64
func.func @floats(%a: memref<4xf16>) {
  return
}

// TOP: error: no function named 'nothere' to synthesize (--top)
// TARGET: error: unknown target 'xc7'; known targets: ecp5-25k, ecp5-45k, ecp5-85k, ice40-up5k, ice40-hx8k, generic
