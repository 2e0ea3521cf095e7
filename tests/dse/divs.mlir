// Two divisions by a variable an iteration: with one divider
// (`[limits] div = 1`) the pipeline's II is 2 (78 cycles: 31 x 2 and its
// depth), with two it is 1 (46). The lower bound of `silica dse` counts
// the units (cli/tests/dse_bounds.rs uses this kernel and space).
// RUN: rm -rf %t
// RUN: silica dse %s --top f --space %S/spaces/divs.toml -o %t --objectives latency > /dev/null
// RUN: FileCheck %s < %t/points.csv
// CHECK: id,loop:i:pipeline,limits:div,status,level,cached,pareto,latency_cycles,
// CHECK-NEXT: 0,true,1,ok,estimate,false,false,78,
// CHECK-NEXT: 1,false,1,ok,estimate,false,false,481,
// CHECK-NEXT: 2,true,2,ok,estimate,false,true,46,
// CHECK-NEXT: 3,false,2,ok,estimate,false,false,449,
func.func @f(%A: memref<32xi32> {hls.name = "A"}, %B: memref<32xi32> {hls.name = "B"},
             %C: memref<32xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 32 {
    %a = affine.load %A[%i] : memref<32xi32>
    %b = affine.load %B[%i] : memref<32xi32>
    %q = arith.divui %a, %b : i32
    %r = arith.remui %a, %b : i32
    %s = arith.addi %q, %r : i32
    affine.store %s, %C[%i] : memref<32xi32>
  } {hls.label = "i"}
  return
}
