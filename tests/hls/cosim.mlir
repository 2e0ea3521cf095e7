// Co-simulation through `silica hls --sim`: a kernel whose loop bound is
// an `index` argument that the memories' size limits, given a fixed
// value with --sim-scalar; a signed scalar given a negative value; the
// run checked in Verilator and, the design being small, in silica's own
// simulator too (which must agree). Bad --sim-scalar values are errors.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top scale -o %t.d --sim --seed 2 --sim-scalar n=5 --sim-scalar k=-3 | FileCheck %s
// CHECK: co-simulation (seed 2): 17 values match, latency {{[0-9]+}} cycles
// RUN: FileCheck %s --check-prefix=JSON < %t.d/scale.json
// JSON: "latency": {
// JSON-NEXT: "min": [[L:[0-9]+]],
// JSON-NEXT: "max": [[L]]
// RUN: not silica hls %s --top scale -o %t.bad --sim --sim-scalar m=1 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: error: --sim-scalar: no scalar argument is named 'm'
// RUN: not silica hls %s --top scale -o %t.bad --sim --sim-scalar k=300 2>&1 | FileCheck %s --check-prefix=FIT
// FIT: error: --sim-scalar: 300 does not fit in 8 bits
// RUN: not test -e %t.bad

// out[i] = in[i] * k for i < n; returns the sum of the products.
func.func @scale(%in: memref<8xi8> {hls.name = "in"}, %out: memref<8xi8> {hls.name = "out"},
                 %n: index {hls.name = "n"}, %k: i8 {hls.name = "k"}) -> i8 {
  %c0 = arith.constant 0 : i8
  %r = affine.for %i = 0 to %n iter_args(%acc = %c0) -> (i8) {
    %x = affine.load %in[%i] : memref<8xi8>
    %y = arith.muli %x, %k : i8
    affine.store %y, %out[%i] : memref<8xi8>
    %s = arith.addi %acc, %y : i8
    affine.yield %s : i8
  }
  return %r : i8
}
