// silica dse on an 8x8 gemm: a 16-point space (4 pruned: unroll 16 is
// more than 8 trips) enumerated at the estimate level; the outputs; a second
// run takes every point from the cache; a directives file of the Pareto
// front co-simulates with `silica hls --sim` at the latency the estimate
// gave; NSGA-II is deterministic for a seed; `--jobs 2` (worker
// processes) finds the same front; a tiled band keeps its loops' labels
// (the directives on k and j still name them: no point invalid); a point
// over `--point-timeout` is recorded as failed with the reason (its
// worker killed), not cached, and evaluated by the next run; the
// multipliers' efficiency of each point (its 576 multiplications per
// multiplier per cycle).
// RUN: rm -rf %t %t.hls %t.n1 %t.n2 %t.j2 %t.tile %t.slow
// RUN: silica dse %s --top gemm --space %S/spaces/small.toml -o %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t/points.csv
// RUN: FileCheck %s --check-prefix=SVG < %t/pareto.svg
// RUN: silica dse %s --top gemm --space %S/spaces/small.toml -o %t | FileCheck %s --check-prefix=AGAIN
// RUN: P=$(ls %t/pareto/point-*.toml | head -1); silica hls %s --top gemm -o %t.hls --sim --directives $P | FileCheck %s --check-prefix=SIM
// RUN: silica dse %s --top gemm --space %S/spaces/small.toml -o %t.n1 --search nsga2 --population 4 --budget 8 --seed 7 | FileCheck %s --check-prefix=NSGA
// RUN: silica dse %s --top gemm --space %S/spaces/small.toml -o %t.n2 --search nsga2 --population 4 --budget 8 --seed 7 > /dev/null
// RUN: diff %t.n1/points.csv %t.n2/points.csv
// RUN: diff %t.n1/pareto.json %t.n2/pareto.json
// RUN: silica dse %s --top gemm --space %S/spaces/small.toml -o %t.j2 --jobs 2 > /dev/null
// RUN: diff <(grep -v '"evaluated"' %t/pareto.json) <(grep -v '"evaluated"' %t.j2/pareto.json)
// RUN: silica dse %s --top gemm --space %S/spaces/tile.toml -o %t.tile | FileCheck %s --check-prefix=TILE
// RUN: FileCheck %s --check-prefix=TILECSV < %t.tile/points.csv
// RUN: silica dse %s --top gemm --space %S/spaces/small.toml -o %t.slow --point-timeout 0.000001 | FileCheck %s --check-prefix=SLOW
// RUN: FileCheck %s --check-prefix=SLOWCSV < %t.slow/points.csv
// RUN: silica dse %s --top gemm --space %S/spaces/small.toml -o %t.slow --jobs 2 | FileCheck %s --check-prefix=AFTER

// CHECK: silica dse: gemm in {{.*}}gemm.mlir, 16 point(s) in the space (3 dimension(s)), exhaustive search
// CHECK: points: 16 seen, 12 evaluated at estimate in {{.*}} s, 0 from the cache, 4 pruned, 0 invalid, 0 failed
// The multiplications: alpha * A[i][k] 64 times, aa * B[k][j] 512 times,
// on two multipliers.
// CHECK: baseline (no directives): [[BASE:[0-9]+]] cycles, {{.*}}, 576 multiplication(s) on 2 multiplier(s) (efficiency 0.{{[0-9]+}})
// CHECK: Pareto front (latency, lut, dsp, bram): {{[1-9]}} point(s)

// CSV: id,loop:j:unroll,loop:j:pipeline,array:C:ports,status,level,cached,pareto,latency_cycles
// CSV-SAME: ,mul_ops,multipliers,mul_efficiency,roofline,note
// CSV: 0,1,true,1,ok,estimate,{{.*}},576,2,0.{{[0-9]+}},
// CSV: 2,16,true,1,pruned,,false,false,{{.*}},unroll 16 is more than the trip count 8 of gemm/i/k/j

// SVG: <svg
// SVG: latency (cycles)

// AGAIN: points: 16 seen, 0 evaluated at estimate in {{.*}} s, 12 from the cache, 4 pruned

// SIM: co-simulation (seed 1): {{[0-9]+}} values match

// NSGA: 16 point(s) in the space (3 dimension(s)), nsga2 search
// NSGA: points: {{[0-9]+}} seen, {{[1-8]}} evaluated

// TILE: 6 point(s) in the space (3 dimension(s))
// TILE: points: 6 seen, 6 evaluated at estimate in {{.*}}, 0 pruned, 0 invalid, 0 failed

// TILECSV: 3,2,false,2x4,ok,estimate,false,false,

// SLOW: points: 16 seen, 12 evaluated at estimate in {{.*}} s, 0 from the cache, 4 pruned, 0 invalid, 12 failed
// SLOW: Pareto front (latency, lut, dsp, bram): 0 point(s)
// SLOWCSV: 0,1,true,1,failed,,false,false,{{.*}},timed out: no result within the time limit of 0.000001 s a point (--point-timeout)

// AFTER: points: 16 seen, 12 evaluated at estimate in {{.*}} s, 0 from the cache, 4 pruned, 0 invalid, 0 failed
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
