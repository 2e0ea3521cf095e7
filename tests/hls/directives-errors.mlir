// Directive attributes with bad values: an error at the op, exit 1,
// nothing written.
// RUN: rm -rf %t.d
// RUN: not silica hls %s --top unroll -o %t.d 2>&1 | FileCheck %s --check-prefix=UNROLL
// RUN: not silica hls %s --top ports -o %t.d 2>&1 | FileCheck %s --check-prefix=PORTS
// RUN: not silica hls %s --top partition -o %t.d 2>&1 | FileCheck %s --check-prefix=PART
// RUN: not silica hls %s --top pipeline -o %t.d 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: not silica hls %s --top hoist -o %t.d 2>&1 | FileCheck %s --check-prefix=HOIST
// RUN: test ! -e %t.d

func.func @unroll(%a: memref<4xi32>) {
  // UNROLL: directives-errors.mlir:[[# @LINE + 1]]:3: error: unroll must be a factor of at least 1 or "full", not "half"
  affine.for %i = 0 to 4 {
    %v = affine.load %a[%i] : memref<4xi32>
    affine.store %v, %a[%i] : memref<4xi32>
  } {hls.unroll = "half"}
  return
}

// PORTS: directives-errors.mlir:[[# @LINE + 1]]:18: error: ports must be 1 or 2, not 3
func.func @ports(%a: memref<4xi32> {hls.ports = 3}) {
  return
}

func.func @partition(%a: memref<4xi32>) {
  // PART: directives-errors.mlir:[[# @LINE + 1]]:8: error: partition kind must be "cyclic", "block" or "complete"
  %b = memref.alloc() {hls.partition = {kind = "diagonal", factor = 2}} : memref<4xi32>
  return
}

func.func @pipeline(%a: memref<4xi32>) {
  // PIPE: directives-errors.mlir:[[# @LINE + 1]]:3: error: pipeline must be true, false or a target II of at least 1, not 0
  affine.for %i = 0 to 4 {
    %v = affine.load %a[%i] : memref<4xi32>
    affine.store %v, %a[%i] : memref<4xi32>
  } {hls.pipeline = 0}
  return
}

func.func @hoist(%a: memref<4xi32>) {
  // HOIST: directives-errors.mlir:[[# @LINE + 1]]:3: error: hoist must be true or false, not 2
  affine.for %i = 0 to 4 {
    %v = affine.load %a[%i] : memref<4xi32>
    affine.store %v, %a[%i] : memref<4xi32>
  } {hls.hoist = 2}
  return
}
