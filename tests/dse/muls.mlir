// The multiplications counted for the multipliers' efficiency are those
// the program executes, by hand 4 x 6 x 2 (A[i][j] * x[j], B[i][j] * x[j])
// + 4 x 2 (alpha, beta) = 56, at every point:
// - j unrolled by 2, and i pipelined (j unrolled fully into it);
// - i pipelined with B on two ports and four multipliers, where datapath
//   rewriting distributes beta over the sum of the B[i][j] * x[j] (20
//   products an iteration, not 14, a shorter schedule): the design
//   repeats products, the program does not need them (was 80);
// - i tiled by 2 with the tiles copied by DMA, whose loop bounds go
//   through `affine.apply` results (was 0: the bounds were not read).
// The multipliers are those the circuit keeps once products of the same
// registers fold: without `[limits]`, i pipelined, every array on one
// port, the 14 products an iteration are 4 multipliers (the six
// A[i][j] * x[j] all multiply A's and x's read data, the six
// B[i][j] * x[j] B's and x's; alpha's and beta's one each), not 14.
// RUN: rm -rf %t %t.dma %t.none
// RUN: silica dse %s --top gesummv --space %S/spaces/muls.toml -o %t > /dev/null
// RUN: FileCheck %s < %t/points.csv
// RUN: silica dse %s --top gesummv --space %S/spaces/muls-dma.toml -o %t.dma > /dev/null
// RUN: FileCheck %s --check-prefix=DMA < %t.dma/points.csv
// RUN: silica dse %s --top gesummv --space %S/spaces/muls-none.toml -o %t.none > /dev/null
// RUN: FileCheck %s --check-prefix=NONE < %t.none/points.csv

// CHECK: id,loop:i:pipeline,loop:j:unroll,array:B:ports,limits:mul,status,
// CHECK-SAME: ,mul_ops,multipliers,mul_efficiency,roofline,note
// CHECK-NEXT: 0,false,1,2,4,ok,{{.*}},56,2,0.{{[0-9]+}},0.{{[0-9]+}},{{$}}
// CHECK-NEXT: 1,true,1,2,4,ok,{{.*}},56,4,0.{{[0-9]+}},0.{{[0-9]+}},{{$}}
// CHECK-NEXT: 2,false,2,2,4,ok,{{.*}},56,2,0.{{[0-9]+}},0.{{[0-9]+}},{{$}}
// CHECK-NEXT: 3,true,2,2,4,ok,{{.*}},56,4,0.{{[0-9]+}},0.{{[0-9]+}},{{$}}

// NONE: id,loop:i:pipeline,array:B:ports,status,
// NONE-NEXT: 0,true,1,ok,{{.*}},56,4,0.{{[0-9]+}},0.{{[0-9]+}},{{$}}

// DMA: 0,2,true,ok,{{.*}},56,{{[0-9]+}},0.{{[0-9]+}},{{[0-9.]*}},cycles from the static model of the DMA engines
func.func @gesummv(%alpha: i32 {hls.name = "alpha"},
    %beta: i32 {hls.name = "beta"},
    %A: memref<4x6xi32> {hls.name = "A"},
    %B: memref<4x6xi32> {hls.name = "B"},
    %x: memref<6xi32> {hls.name = "x"},
    %y: memref<4xi32> {hls.name = "y"}) {
  %c0 = arith.constant 0 : i32
  affine.for %i = 0 to 4 {
    %r:2 = affine.for %j = 0 to 6 iter_args(%t = %c0, %u = %c0) -> (i32, i32) {
      %a = affine.load %A[%i, %j] : memref<4x6xi32>
      %xv = affine.load %x[%j] : memref<6xi32>
      %p = arith.muli %a, %xv : i32
      %t2 = arith.addi %p, %t : i32
      %b = affine.load %B[%i, %j] : memref<4x6xi32>
      %q = arith.muli %b, %xv : i32
      %u2 = arith.addi %q, %u : i32
      affine.yield %t2, %u2 : i32, i32
    } {hls.label = "j"}
    %s = arith.muli %alpha, %r#0 : i32
    %v = arith.muli %beta, %r#1 : i32
    %w = arith.addi %s, %v : i32
    affine.store %w, %y[%i] : memref<4xi32>
  } {hls.label = "i"}
  return
}
