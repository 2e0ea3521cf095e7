// An invalid structured op is refused by the verifier before silica hls
// lowers it: an error at the op, nothing written.
// RUN: not silica hls %s --top bad -o %t.bad 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: test ! -e %t.bad

#out = affine_map<(d0, d1) -> (d0)>
// BAD: hls-invalid.mlir:[[# @LINE + 2]]:3: error: 'linalg.generic' op expected operand #1 rank (2) to match the result rank of indexing_map (1)
func.func @bad(%x: memref<4xi32>, %y: memref<4x4xi32>) {
  linalg.generic {indexing_maps = [#out, #out], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4xi32>) outs(%y : memref<4x4xi32>) {
  ^bb0(%a: i32, %b: i32):
    linalg.yield %a : i32
  }
  return
}
