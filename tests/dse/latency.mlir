// The estimate's latency is exact: a pipeline at II 3 (depth 5)
// entered once per iteration of i drains in (8 - 1) * 3 + 5 = 26
// cycles, and its state is left only then (the next entry's load of
// B[i][j] must come after the drain's store of B: control/overlap.rs
// finds no lead). 26 is not a multiple of the II, so an II counter that
// kept its phase across exits would delay each later entry's first
// issue by a cycle (108 cycles; with 24 cycles an entry, as the body
// without B's load had, the phase came back to 0 by itself and the test
// could not fail). `silica dse` estimates 4 * 26 + 1 = 105 cycles, and
// the point's directives co-simulate in exactly those cycles; the report
// says so (it would show the schedule's figure beside a differing one).
// RUN: rm -rf %t %t.hls %t.10 %t.hls10
// RUN: silica dse %s --top f --space %S/spaces/reentry.toml -o %t | FileCheck %s
// RUN: silica hls %s --top f -o %t.hls --sim --directives %t/pareto/point-0.toml | FileCheck %s --check-prefix=SIM
// RUN: FileCheck %s --check-prefix=REPORT < %t.hls/report.txt
// At 10 ns the library predicts a 10.84 ns critical path (the i32
// multiplier): the latency in us is the cycles at that period, not at
// the 10 ns the design cannot reach.
// RUN: silica dse %s --top f --space %S/spaces/reentry.toml -o %t.10 --clock-ns 10 | FileCheck %s --check-prefix=US
// RUN: silica hls %s --top f -o %t.hls10 --clock-ns 10 --sim --directives %t.10/pareto/point-0.toml | FileCheck %s --check-prefix=SIM10
// RUN: FileCheck %s --check-prefix=CLOCK < %t.hls10/report.txt

// CHECK: Pareto front (latency, lut, dsp, bram): 1 point(s)
// CHECK-NEXT: point cycles
// CHECK-NEXT: {{^ *}}0{{ +}}105{{ }}

// SIM: co-simulation (seed 1): 64 values match, latency 105 cycles

// REPORT: latency: 105 cycles ({{.*}}), measured by co-simulation, as the static schedule gives
// REPORT: f/i/j: trip 8, pipelined, II 3 (ResMII 3, RecMII 1), depth 5

// US: point cycles us
// US-NEXT: {{^ *}}0{{ +}}109{{ +}}1.182{{ }}
// SIM10: co-simulation (seed 1): 64 values match, latency 109 cycles
// CLOCK: clock (estimate): 10.84 ns (92.2 MHz)
func.func @f(%A: memref<4x8xi32> {hls.name = "A"}, %B: memref<4x8xi32> {hls.name = "B"}) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j] : memref<4x8xi32>
      %b = affine.load %A[%i, 7 - %j] : memref<4x8xi32>
      %c = affine.load %A[3 - %i, %j] : memref<4x8xi32>
      %s = arith.addi %a, %b : i32
      %p = arith.muli %s, %c : i32
      %d = affine.load %B[%i, %j] : memref<4x8xi32>
      %q = arith.addi %p, %d : i32
      affine.store %q, %B[%i, %j] : memref<4x8xi32>
    } {hls.label = "j"}
  } {hls.label = "i"}
  return
}
