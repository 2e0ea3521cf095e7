// The on-chip buffers that affine-data-copy-generate makes (memory space
// 1, no name) are named after the memory they copy: A_buf for A, then
// A_buf1, ... where a name is taken (here by the kernel's own array
// "B_buf", so B's buffer is B_buf1, and the copy of B_buf is B_buf_buf).
// The names are the same in the report, the JSON, the circuit and the
// directives, which can give a buffer two ports; in the circuit but for
// B_buf_buf: the kernel reads B_buf at the element it has just stored,
// which takes the stored value (affine-scalrep), so that buffer is
// never read and the circuit keeps no memory for it. Co-simulated bit
// for bit.
// RUN: rm -rf %t.d
// RUN: silica opt --affine-data-copy-generate="generate-dma fast-mem-space=1 fast-mem-capacity=4" --affine-pipeline-data-transfer %s | silica hls - --top f -o %t.d --sim --directives %S/directives/dma-buffers.toml | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.d/f.json
// RUN: FileCheck %s --check-prefix=SV < %t.d/f.sv
// RUN: not grep B_buf_buf_ %t.d/f.sv

// CHECK: co-simulation (seed 1): {{[0-9]+}} values match
// CHECK: on-chip buffers: A_buf, B_buf, B_buf1, B_buf_buf, C_buf
// CHECK: A_buf: ports = 2 (directives file): honoured: a RAM with 2 read/write ports
// JSON: "buffers": [
// JSON-NEXT: "A_buf",
// JSON-NEXT: "B_buf",
// JSON-NEXT: "B_buf1",
// JSON-NEXT: "B_buf_buf",
// JSON-NEXT: "C_buf"
// SV-DAG: A_buf_rdata
// SV-DAG: B_buf1_rdata
// SV-DAG: C_buf_rdata
func.func @f(%A: memref<8x8xi32> {hls.name = "A"}, %B: memref<8x8xi32> {hls.name = "B"},
             %C: memref<8x8xi32> {hls.name = "C"}) {
  %t = memref.alloc() {hls.name = "B_buf"} : memref<8xi32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j] : memref<8x8xi32>
      %b = affine.load %B[%i, %j] : memref<8x8xi32>
      %p = arith.muli %a, %b : i32
      affine.store %p, %t[%j] : memref<8xi32>
      %q = affine.load %t[%j] : memref<8xi32>
      %c = arith.addi %q, %a : i32
      affine.store %c, %C[%i, %j] : memref<8x8xi32>
    }
  }
  return
}
