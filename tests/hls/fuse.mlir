// Sibling loops fused for flatten (front/fuse.rs, the affine layer's
// fusion/shift.rs) and carried with warm-up iterations
// (front/carry/warm.rs). jacobi: a time loop around two 3-point sweeps
// (A -> B, B -> A), each pipelined at II 1 with its own fill and drain
// and loads before it: 115 cycles. With `hls.flatten` on t the second
// sweep is shifted by one iteration (it reads B[i + 1], written one
// iteration later, and writes A[i], read one iteration earlier), fused
// into the first under guards, carried (2 warm-up iterations instead of
// loads before the loop) and folded with t into one pipeline at II 1:
// 59 cycles. sweep: a producer and a consumer of B[j], B[j + 1]
// (137 cycles as two pipelines; 73 fused, 72 since its division by 3
// is a product by a reciprocal in adds, constant_product.rs). steps: different steps, not
// fused, and flatten refuses the nest with a warning. Co-simulated bit
// for bit, lint clean, accepted by yosys.
// RUN: rm -rf %t.j %t.s %t.t
// RUN: silica hls %s --top jacobi -o %t.j --sim | FileCheck %s --check-prefix=JACOBI
// RUN: FileCheck %s --check-prefix=JREPORT < %t.j/report.txt
// RUN: verilator --lint-only -Wall %t.j/jacobi.sv
// RUN: yosys -q -p "read_verilog -sv %t.j/jacobi.sv; synth_ice40 -dsp -top jacobi"
// RUN: silica hls %s --top sweep -o %t.s --sim | FileCheck %s --check-prefix=SWEEP
// RUN: FileCheck %s --check-prefix=SREPORT < %t.s/report.txt
// RUN: verilator --lint-only -Wall %t.s/sweep.sv
// RUN: yosys -q -p "read_verilog -sv %t.s/sweep.sv; synth_ice40 -dsp -top sweep"
// RUN: silica hls %s --top steps -o %t.t --sim 2>&1 | FileCheck %s --check-prefix=STEPS

// JACOBI: co-simulation (seed 1): 32 values match, latency 59 cycles
// JREPORT: jacobi/0: trip 51 (flattened with jacobi/0/0), pipelined, II 1 (ResMII 1, RecMII 1)
// JREPORT: note: jacobi/0: jacobi/0/1 fused into jacobi/0/0 for flatten, shifted by 1 iteration (the smallest shift the dependences allow)
// JREPORT: note: loads carried across iterations (rotating registers): jacobi/0/0: 6 -> 2 loads per iteration, 4 element(s) carried, 2 warm-up iterations instead of loads before the loop
// JREPORT: jacobi/0: flatten (attribute): honoured: jacobi/0/0 folded into it: one counter chain, one pipeline
// JREPORT: jacobi/0/1: pipeline = true (attribute): honoured: fused into jacobi/0/0, pipelined with it
func.func @jacobi(%A: memref<16xi32> {hls.name = "A", hls.ports = 2},
                  %B: memref<16xi32> {hls.name = "B", hls.ports = 2}) {
  %c3 = arith.constant 3 : i32
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 15 {
      %a = affine.load %A[%i - 1] : memref<16xi32>
      %b = affine.load %A[%i] : memref<16xi32>
      %c = affine.load %A[%i + 1] : memref<16xi32>
      %s = arith.addi %a, %b : i32
      %u = arith.addi %s, %c : i32
      %q = arith.divsi %u, %c3 : i32
      affine.store %q, %B[%i] : memref<16xi32>
    } {hls.pipeline}
    affine.for %i = 1 to 15 {
      %a = affine.load %B[%i - 1] : memref<16xi32>
      %b = affine.load %B[%i] : memref<16xi32>
      %c = affine.load %B[%i + 1] : memref<16xi32>
      %s = arith.addi %a, %b : i32
      %u = arith.addi %s, %c : i32
      %q = arith.divsi %u, %c3 : i32
      affine.store %q, %A[%i] : memref<16xi32>
    } {hls.pipeline}
  } {hls.flatten}
  return
}

// SWEEP: co-simulation (seed 1): 32 values match, latency 72 cycles
// SREPORT: sweep/0: trip 68 (flattened with sweep/0/0), pipelined, II 1 (ResMII 1, RecMII 1)
// SREPORT: note: sweep/0: sweep/0/1 fused into sweep/0/0 for flatten, shifted by 1 iteration (the smallest shift the dependences allow)
// SREPORT: note: loads carried across iterations (rotating registers): sweep/0/0: 3 -> 2 loads per iteration, 1 element(s) carried, 1 warm-up iteration instead of loads before the loop
func.func @sweep(%A: memref<16xi32> {hls.name = "A", hls.ports = 2},
                 %B: memref<16xi32> {hls.name = "B", hls.ports = 2}) {
  %c3 = arith.constant 3 : i32
  affine.for %t = 0 to 4 {
    affine.for %i = 0 to 16 {
      %a = affine.load %A[%i] : memref<16xi32>
      %b = arith.muli %a, %c3 : i32
      affine.store %b, %B[%i] : memref<16xi32>
    } {hls.pipeline}
    affine.for %j = 0 to 15 {
      %x = affine.load %B[%j] : memref<16xi32>
      %y = affine.load %B[%j + 1] : memref<16xi32>
      %s = arith.subi %y, %x : i32
      affine.store %s, %A[%j] : memref<16xi32>
    } {hls.pipeline}
  } {hls.flatten}
  return
}

// STEPS: warning: flatten on steps/0 is not honoured: it is not a perfect nest
// STEPS: co-simulation (seed 1): 32 values match
func.func @steps(%A: memref<16xi32> {hls.name = "A"}, %B: memref<16xi32> {hls.name = "B"}) {
  affine.for %t = 0 to 2 {
    affine.for %i = 0 to 16 {
      %a = affine.load %A[%i] : memref<16xi32>
      affine.store %a, %B[%i] : memref<16xi32>
    } {hls.pipeline}
    affine.for %j = 0 to 16 step 2 {
      %x = affine.load %B[%j] : memref<16xi32>
      affine.store %x, %A[%j] : memref<16xi32>
    } {hls.pipeline}
  } {hls.flatten}
  return
}
