// Points with DMA (`dma = true`: `affine-data-copy-generate` with DMA
// into on-chip buffers, then `affine-pipeline-data-transfer`) have no
// static latency: their waits last as long as the transfers. `silica
// dse` builds their circuits and co-simulates them in silica's simulator
// against the software run of the kernel as written, which measures the
// cycles (and checks the tiling and the copies); `points.csv` says so.
// The front's point co-simulates in `silica hls --sim` at the cycles
// `silica dse` recorded for it.
// RUN: rm -rf %t %t.hls %t.cycles
// RUN: silica dse %s --top gemm --space %S/spaces/dma.toml -o %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t/points.csv
// RUN: N=$(ls %t/pareto | grep -m1 'mlir$' | tr -dc 0-9); grep "^$N," %t/points.csv | cut -d, -f8 > %t.cycles; silica hls %t/pareto/point-$N.mlir --top gemm -o %t.hls --sim --directives %t/pareto/point-$N.toml | grep -o 'latency [0-9]* cycles' | diff - <(sed 's/.*/latency & cycles/' %t.cycles)

// CHECK: 3 point(s) in the space (2 dimension(s))
// CHECK: points: 3 seen, 3 evaluated at estimate in {{.*}}, 0 pruned, 0 invalid, 0 failed
// CHECK: Pareto front
// CHECK: (cycles co-simulated)

// CSV: 0,none,true,ok,estimate,false,{{.*}},cycles measured by co-simulation (DMA: no static latency)
// CSV: 1,4x4,true,ok,estimate,false,{{.*}},cycles measured by co-simulation (DMA: no static latency)
// CSV: 2,2x8,true,ok,estimate,false,{{.*}},cycles measured by co-simulation (DMA: no static latency)
func.func @gemm(%alpha: i32 {hls.name = "alpha"},
                %C: memref<8x8xi32> {hls.name = "C"},
                %A: memref<8x8xi32> {hls.name = "A"},
                %B: memref<8x8xi32> {hls.name = "B"}) {
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 8 {
      %a = affine.load %A[%i, %k] : memref<8x8xi32>
      %aa = arith.muli %alpha, %a : i32
      affine.for %j = 0 to 8 {
        %b = affine.load %B[%k, %j] : memref<8x8xi32>
        %c = affine.load %C[%i, %j] : memref<8x8xi32>
        %p = arith.muli %aa, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<8x8xi32>
      } {hls.label = "j"}
    } {hls.label = "k"}
  } {hls.label = "i"}
  return
}
