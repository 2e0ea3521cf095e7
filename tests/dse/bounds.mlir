// Pruning by lower bounds: with objectives that can be bounded (latency
// and BRAM here), the points are evaluated from the least latency bound
// up, and a point whose bounds are dominated by a point evaluated before
// is not evaluated (`dominated`, level `pruned` in points.csv, with the
// bounds and the point that dominates them). The front is the one every
// point gives (`--no-bounds`). With LUTs among the objectives (the
// default) nothing can be pruned and no bound is computed.
// RUN: rm -rf %t %t.all %t.lut
// RUN: silica dse %S/gemm.mlir --top gemm --space %S/spaces/small.toml --objectives latency,bram -o %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t/points.csv
// RUN: silica dse %S/gemm.mlir --top gemm --space %S/spaces/small.toml --objectives latency,bram -o %t.all --no-bounds | FileCheck %s --check-prefix=ALL
// RUN: diff <(sed -n '/Pareto front/,$p' %t/summary.txt) <(sed -n '/Pareto front/,$p' %t.all/summary.txt)
// RUN: silica dse %S/gemm.mlir --top gemm --space %S/spaces/small.toml -o %t.lut | FileCheck %s --check-prefix=LUT

// CHECK: points: 16 seen, 10 evaluated at estimate in {{.*}}, 4 pruned, 0 invalid, 0 failed
// CHECK-NEXT: lower bounds: 2 point(s) not evaluated, their bounds dominated by a point evaluated before
// CHECK: Pareto front (latency, bram): 1 point(s)

// CSV: 7,4,false,1,dominated,pruned,false,false,{{.*}},"not evaluated: lower bounds latency >= 1089, bram >= 0 dominated by point 1"
// CSV: 12,1,false,2,dominated,pruned,false,false,{{.*}},"not evaluated: lower bounds latency >= 1089, bram >= 0 dominated by point 1"

// ALL: points: 16 seen, 12 evaluated
// ALL-NOT: lower bounds

// LUT: points: 16 seen, 12 evaluated
// LUT-NOT: lower bounds
