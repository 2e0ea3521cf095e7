// A loop bound through an `affine.apply` result (index arithmetic on an
// induction variable: j runs 2i + 1 times) has a static latency: the
// loop walk evaluates the arithmetic at the induction variables' values
// (the multiply by 2 is built as a shift, `constant_product.rs`, with no
// datapath rewriting needed). The co-simulation measures the same cycles
// (before: "unknown statically").
// RUN: rm -rf %t.d
// RUN: silica hls %s --top f -o %t.d --sim | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.d/report.txt
// RUN: verilator --lint-only -Wall %t.d/f.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/f.sv; synth_ice40 -dsp -top f"

// CHECK: values match, latency {{[0-9]+}} cycles
// REPORT: latency: {{[0-9]+}} cycles ({{.*}}), measured by co-simulation, as the static schedule gives
// REPORT: datapath rewriting (e-graphs): no cheaper integer expression found
#m = affine_map<(d0) -> (d0 * 2 + 1)>
func.func @f(%a: memref<20xi32> {hls.name = "a"}, %s: memref<1xi32> {hls.name = "s"}) {
  affine.for %i = 0 to 4 {
    %u = affine.apply #m(%i)
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%u) {
      %v = affine.load %a[%j] : memref<20xi32>
      %w = affine.load %s[0] : memref<1xi32>
      %x = arith.muli %v, %w : i32
      affine.store %x, %s[0] : memref<1xi32>
    }
  }
  return
}
