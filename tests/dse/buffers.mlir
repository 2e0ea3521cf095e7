// A space can name the on-chip buffers that DMA copies make (`C_buf`
// for C, as `silica hls` names them): the entry applies at points with
// `dma = true`; without DMA it is left out of the directives (the point
// is then the design of the first choice, found in the cache) and the
// other choices are pruned as repeats. C's buffer on two ports lets the
// pipelined j loop read and write C in one cycle: fewer cycles. The
// front's DMA point co-simulates at the cycles `silica dse` recorded.
// RUN: rm -rf %t %t.hls %t.cycles
// RUN: silica dse %s --top gemm --space %S/spaces/buffers.toml -o %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t/points.csv
// RUN: FileCheck %s --check-prefix=TOML < %t/pareto/point-3.toml
// RUN: grep "^3," %t/points.csv | cut -d, -f9 > %t.cycles; silica hls %t/pareto/point-3.mlir --top gemm -o %t.hls --sim --directives %t/pareto/point-3.toml | grep -o 'latency [0-9]* cycles' | diff - <(sed 's/.*/latency & cycles/' %t.cycles)
// RUN: FileCheck %s --check-prefix=REPORT < %t.hls/report.txt

// CHECK: 4 point(s) in the space (3 dimension(s))
// CHECK: points: 4 seen, 3 evaluated at estimate in {{.*}}, 1 pruned, 0 invalid, 0 failed

// CSV: 0,1,4x4,false,ok,estimate,false,true,1381,
// CSV: 1,2,4x4,false,pruned,{{.*}},C_buf is a DMA buffer or on-chip copy and the point has neither (ports 2 repeats 1)
// CSV: 2,1,4x4,true,ok,estimate,false,false,1717,{{.*}},cycles from the static model of the DMA engines
// CSV: 3,2,4x4,true,ok,estimate,false,true,1205,{{.*}},cycles from the static model of the DMA engines

// TOML: name = "C_buf"
// TOML-NEXT: ports = 2

// REPORT: C_buf: ports = 2 (directives file): honoured: a RAM with 2 read/write ports
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
