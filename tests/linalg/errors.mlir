// Structured ops the lowering cannot take: an error at the op, for
// silica opt and silica hls alike.
// RUN: not silica opt %s --convert-linalg-to-affine-loops 2>&1 | FileCheck %s
// RUN: not silica hls %s --top bad -o %t.bad 2>&1 | FileCheck %s
// RUN: test ! -e %t.bad

#out = affine_map<(d0, d1) -> (d0)>
// CHECK: errors.mlir:[[# @LINE + 2]]:3: error: 'linalg.generic': indexing map 1 has 1 results for an operand of rank 2
func.func @bad(%x: memref<4xi32>, %y: memref<4x4xi32>) {
  linalg.generic {indexing_maps = [#out, #out], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4xi32>) outs(%y : memref<4x4xi32>) {
  ^bb0(%a: i32, %b: i32):
    linalg.yield %a : i32
  }
  return
}
