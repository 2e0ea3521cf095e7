// A float dot product: the pipelined loop carries the sum through an
// fadd, and the II is at least the fadd's latency at the clock period,
// whatever datapath rewriting does (it leaves float operations alone).
// `silica dse`'s latency bound counts it (the recurrence bound,
// cli/tests/dse_bounds.rs uses this kernel and space), and pruning by it
// gives the front every point gives.
// RUN: rm -rf %t %t.all
// RUN: silica dse %s --top fdot --space %S/spaces/fdot.toml -o %t --objectives latency > /dev/null
// RUN: silica dse %s --top fdot --space %S/spaces/fdot.toml -o %t.all --objectives latency --no-bounds > /dev/null
// RUN: diff <(sed -n '/Pareto front/,$p' %t/summary.txt) <(sed -n '/Pareto front/,$p' %t.all/summary.txt)
// RUN: FileCheck %s < %t/summary.txt
// CHECK: points: 12 seen, [[N:[0-9]+]] evaluated
// CHECK: lower bounds: {{[1-9][0-9]*}} point(s) not evaluated
func.func @fdot(%a: memref<32xf32> {hls.name = "a"}, %b: memref<32xf32> {hls.name = "b"}) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = affine.for %i = 0 to 32 iter_args(%acc = %z) -> (f32) {
    %x = affine.load %a[%i] : memref<32xf32>
    %y = affine.load %b[%i] : memref<32xf32>
    %p = arith.mulf %x, %y : f32
    %t = arith.addf %acc, %p : f32
    affine.yield %t : f32
  } {hls.label = "i"}
  return %s : f32
}
