// Points with DMA (`dma = true`: `affine-data-copy-generate` with DMA
// into on-chip buffers, then `affine-pipeline-data-transfer`) have no
// static schedule latency: their waits last as long as the transfers.
// `silica dse` times them with the static model of the DMA engines
// (`points.csv` says so), and the model gives the co-simulated cycles:
// the front's point co-simulates in `silica hls --sim` at the cycles
// `silica dse` recorded for it, and its report prints the model's beside
// them.
// RUN: rm -rf %t %t.hls %t.cycles
// RUN: silica dse %s --top gemm --space %S/spaces/dma.toml -o %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t/points.csv
// RUN: N=$(ls %t/pareto | grep -m1 'mlir$' | tr -dc 0-9); grep "^$N," %t/points.csv | cut -d, -f8 > %t.cycles; silica hls %t/pareto/point-$N.mlir --top gemm -o %t.hls --sim --directives %t/pareto/point-$N.toml | grep -o 'latency [0-9]* cycles' | diff - <(sed 's/.*/latency & cycles/' %t.cycles)
// RUN: FileCheck %s --check-prefix=REPORT < %t.hls/report.txt

// CHECK: 3 point(s) in the space (2 dimension(s))
// CHECK: points: 3 seen, 3 evaluated at estimate in {{.*}}, 0 pruned, 0 invalid, 0 failed
// CHECK: Pareto front
// CHECK: (cycles by the DMA model)

// REPORT: latency: [[C:[0-9]+]] cycles ({{.*}}), measured by co-simulation; the static DMA model gives [[C]]

// CSV: 0,none,true,ok,estimate,false,{{.*}},cycles from the static model of the DMA engines
// CSV: 1,4x4,true,ok,estimate,false,{{.*}},cycles from the static model of the DMA engines
// CSV: 2,2x8,true,ok,estimate,false,{{.*}},cycles from the static model of the DMA engines
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
