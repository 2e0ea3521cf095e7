// `silica dse` over `interchange`: the first nest makes X row by row,
// the second reads it column by column; at once, the second waits for
// X's last row (132 cycles), and with the first nest's loops swapped the
// two run side by side (76). The faster point's directives file
// rebuilds the design, co-simulated.
// RUN: rm -rf %t.dse %t.hls
// RUN: silica dse %s --top cols --space %S/spaces/interchange.toml --objectives latency -o %t.dse | FileCheck %s --check-prefix=FRONT
// RUN: silica hls %s --top cols -o %t.hls --sim --directives %t.dse/pareto/point-1.toml | FileCheck %s --check-prefix=HLS

// FRONT: Pareto front (latency): 1 point(s)
// FRONT: 1 76 {{.*}} loop:cols/0:interchange=true dataflow=true
// HLS: co-simulation (seed 1): 192 values match, latency 76 cycles
func.func @cols(%A: memref<8x8xi32> {hls.name = "A"}, %X: memref<8x8xi32> {hls.name = "X"},
                %Y: memref<8x8xi32> {hls.name = "Y"}) {
  %two = arith.constant 2 : i32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j] : memref<8x8xi32>
      %x = arith.muli %a, %two : i32
      affine.store %x, %X[%i, %j] : memref<8x8xi32>
    }
  }
  affine.for %j = 0 to 8 {
    affine.for %i = 0 to 8 {
      %x = affine.load %X[%i, %j] : memref<8x8xi32>
      %y = arith.addi %x, %x : i32
      affine.store %y, %Y[%i, %j] : memref<8x8xi32>
    }
  }
  return
}
