// --validate: the Pareto point re-evaluated with yosys and nextpnr
// (iCE40, Debian's tools): measured logic cells (LC), DSP and Fmax beside
// the estimate, the estimate's error per figure in the summary, points.csv
// and pareto.json; with --validate-level synth, through yosys alone (its
// netlist's LUT4s: logic cells need placement).
// RUN: rm -rf %t %t.synth %t.vsynth
// RUN: silica dse %s --top f --space %S/spaces/ports.toml -o %t --target ice40-up5k --clock-ns 20 --validate 1 --objectives latency,lut | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t/points.csv
// RUN: FileCheck %s --check-prefix=JSON < %t/pareto.json
// RUN: silica dse %s --top f --space %S/spaces/ports.toml -o %t.synth --target ice40-up5k --clock-ns 20 --level synth --objectives latency,lut > /dev/null
// RUN: FileCheck %s --check-prefix=SYNTH < %t.synth/points.csv
// RUN: silica dse %s --top f --space %S/spaces/ports.toml -o %t.vsynth --target ice40-up5k --clock-ns 20 --validate 1 --validate-level synth --objectives latency,lut 2>&1 | FileCheck %s --check-prefix=VSYNTH
// RUN: FileCheck %s --check-prefix=VJSON < %t.vsynth/pareto.json
// RUN: FileCheck %s --check-prefix=SVG < %t/pareto.svg

// CHECK: baseline (no directives): {{[0-9]+}} cycles, {{[0-9]+}} LC,
// CHECK: Pareto front (latency, lut): 1 point(s)
// CHECK-NEXT: point cycles us LC DSP BRAM
// CHECK: pnr: {{[0-9.]+}} us at {{[0-9.]+}} MHz, {{[0-9]+}} LC, {{[0-9]+}} FF, {{[0-9]+}} DSP, 0 BRAM; estimate error: latency {{[-+][0-9.]+}}%, LC {{[-+][0-9.]+}}%, FF {{[-+][0-9.]+}}%, DSP +0.0%, BRAM +0.0%, Fmax {{[-+][0-9.]+}}% ({{[0-9.]+}} MHz predicted)
// CSV: 0,1,ok,pnr,false,true,68,
// --level synth: every point through yosys (measured LUT/FF, no nextpnr);
// its microseconds are the cycles at the library's predicted period.
// SYNTH: 0,1,ok,synth,false,{{true|false}},68,{{[0-9]+\.[0-9]+}},{{[1-9][0-9]+}},{{[1-9][0-9]+}},0,0
// SYNTH: 1,2,ok,synth,false,{{true|false}},68,{{[0-9]+\.[0-9]+}},{{[1-9][0-9]+}},{{[1-9][0-9]+}},0,0
// --validate-level synth: the Pareto point through yosys alone.
// VSYNTH: validating 1 point(s) with yosys
// VSYNTH: synth: {{[0-9]+\.[0-9]+}} us at {{[0-9.]+}} MHz estimated, {{[1-9][0-9]*}} LUT4, {{[0-9]+}} FF, 0 DSP, 0 BRAM; estimate error: latency +0.0%, LUT4 {{[-+][0-9.]+}}%, FF {{[-+][0-9.]+}}%, DSP +0.0%, BRAM +0.0%{{$}}
// VJSON: "validation_level": "synth"
// JSON: "estimate_error": {
// JSON-NEXT: "latency_us":
// JSON: "fmax_mhz":
// pareto.svg: the estimate joined to the placed figures.
// SVG: estimate to nextpnr (x)
func.func @f(%A: memref<8x8xi32> {hls.name = "A"}, %C: memref<8x8xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j] : memref<8x8xi32>
      %s = arith.addi %a, %a : i32
      affine.store %s, %C[%i, %j] : memref<8x8xi32>
    } {hls.label = "j"}
  } {hls.label = "i"}
  return
}
