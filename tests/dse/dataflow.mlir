// `silica dse` over `dataflow`: two 8x8 products chained through an
// external array, one after another (1281 cycles) or at once (715, the
// second port on t and b costing LUTs): both on the front, and the
// dataflow point's directives file rebuilds the design, co-simulated.
// RUN: rm -rf %t.dse %t.hls
// RUN: silica dse %s --top rows --space %S/spaces/dataflow.toml -o %t.dse | FileCheck %s --check-prefix=FRONT
// RUN: FileCheck %s --check-prefix=CSV < %t.dse/points.csv
// RUN: silica hls %s --top rows -o %t.hls --sim --directives %t.dse/pareto/point-1.toml | FileCheck %s --check-prefix=HLS

// FRONT: Pareto front (latency, lut, dsp, bram): 2 point(s)
// CSV: 0,false,ok,estimate,{{[^,]*}},true,1281,
// CSV: 1,true,ok,estimate,{{[^,]*}},true,715,
// HLS: co-simulation (seed 1): 256 values match, latency 715 cycles
func.func @rows(%a: memref<8x8xi32> {hls.name = "a"}, %b: memref<8x8xi32> {hls.name = "b"},
                %t: memref<8x8xi32> {hls.name = "t"}, %d: memref<8x8xi32> {hls.name = "d"}) {
  %zero = arith.constant 0 : i32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %s = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> i32 {
        %x = affine.load %a[%i, %k] : memref<8x8xi32>
        %y = affine.load %b[%k, %j] : memref<8x8xi32>
        %p = arith.muli %x, %y : i32
        %n = arith.addi %acc, %p : i32
        affine.yield %n : i32
      }
      affine.store %s, %t[%i, %j] : memref<8x8xi32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %s = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> i32 {
        %x = affine.load %t[%i, %k] : memref<8x8xi32>
        %y = affine.load %b[%k, %j] : memref<8x8xi32>
        %p = arith.muli %x, %y : i32
        %n = arith.addi %acc, %p : i32
        affine.yield %n : i32
      }
      affine.store %s, %d[%i, %j] : memref<8x8xi32>
    }
  }
  return
}
