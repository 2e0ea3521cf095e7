// gemm with perfect nests (C = beta * C, then C += alpha * A * B over
// i/k/j) from a directives file: flatten folds each nest into one
// pipeline (one counter chain), C gets two ports for its read and write,
// so the multiply-add nest runs at II 1, about one multiply-add per
// cycle (4357 cycles against 9249 without directives). A [limits] file
// puts every multiplication on one multiplier. Co-simulated bit for bit;
// lint clean; accepted by yosys. Directives files that name no loop or
// array, or have bad values or keys: errors at the key, nothing written.
// RUN: rm -rf %t.base %t.d %t.lim %t.bad
// RUN: silica hls %s --top gemm -o %t.base --sim | FileCheck %s --check-prefix=BASE
// RUN: silica hls %s --top gemm -o %t.d --sim --directives %S/directives/gemm.toml | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.d/gemm.json
// RUN: verilator --lint-only -Wall %t.d/gemm.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/gemm.sv; synth_ice40 -dsp -top gemm"
// RUN: silica hls %s --top gemm -o %t.lim --sim --directives %S/directives/limits.toml | FileCheck %s --check-prefix=LIM
// RUN: verilator --lint-only -Wall %t.lim/gemm.sv
// RUN: yosys -q -p "read_verilog -sv %t.lim/gemm.sv; synth_ice40 -dsp -top gemm"
// RUN: not silica hls %s --top gemm -o %t.bad --directives %S/directives/bad-label.toml 2>&1 | FileCheck %s --check-prefix=LABEL
// RUN: not silica hls %s --top gemm -o %t.bad --directives %S/directives/bad-array.toml 2>&1 | FileCheck %s --check-prefix=ARRAY
// RUN: not silica hls %s --top gemm -o %t.bad --directives %S/directives/bad-value.toml 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not silica hls %s --top gemm -o %t.bad --directives %S/directives/bad-limit.toml 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not silica hls %s --top gemm -o %t.bad --directives %S/directives/bad-key.toml 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not silica hls %s --top gemm -o %t.bad --directives %S/directives/missing.toml 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: test ! -e %t.bad

// BASE: co-simulation (seed 1): 768 values match, latency 9249 cycles
// BASE: gemm/i/k/j: trip 16, pipelined, II 2 (ResMII 2, RecMII 1)

// CHECK: co-simulation (seed 1): 768 values match, latency 4357 cycles
// CHECK: against the pipelines' bound (sum of iterations x MII + deepest depth = 4355 cycles): 1.00x
// CHECK: gemm/si: trip 256 (flattened with gemm/si/sj), pipelined, II 1 (ResMII 1, RecMII 1), depth 3
// CHECK: gemm/i: trip 4096 (flattened with gemm/i/k, gemm/i/k/j), pipelined, II 1 (ResMII 1, RecMII 1), depth 3
// CHECK: directives:
// CHECK-NEXT: C: ports = 2 (directives file): honoured: 2 external memory ports
// CHECK-NEXT: gemm/i: flatten (directives file): honoured: gemm/i/k, gemm/i/k/j folded into it: one counter chain, one pipeline
// CHECK-NEXT: gemm/i: pipeline II=1 (directives file): honoured: pipelined at II 1
// CHECK-NEXT: gemm/si: flatten (directives file): honoured: gemm/si/sj folded into it

// JSON: "name": "C",
// JSON: "ports": 2,
// JSON: "path": "gemm/i",
// JSON-NEXT: "trip_count": 4096,
// JSON-NEXT: "pipelined": true,
// JSON-NEXT: "ii": 1,
// JSON: "flattened": [
// JSON-NEXT: "gemm/i/k",
// JSON-NEXT: "gemm/i/k/j"

// LIM: co-simulation (seed 1): 768 values match
// LIM: limits: mul = 1 (directives file): honoured: 3 mul operation(s) on 1 unit(s)

// LABEL: bad-label.toml:2:9: error: no loop is named 'x' (loops: gemm/si, gemm/si/sj, gemm/i, gemm/i/k, gemm/i/k/j)
// ARRAY: bad-array.toml:2:8: error: no array is named 'D' (arrays: C, A, B)
// VALUE: bad-value.toml:3:10: error: unroll must be a factor of at least 1 or "full", not "half"
// LIMIT: bad-limit.toml:2:1: error: no functional unit is named 'dsp' (limits: mul, div, fadd, fmul, fdiv)
// KEY: bad-key.toml:3:1: error: unknown field `pipelin`
// MISSING: error: could not open directives file
func.func @gemm(%alpha: i32 {hls.name = "alpha"}, %beta: i32 {hls.name = "beta"},
                %C: memref<16x16xi32> {hls.name = "C"},
                %A: memref<16x16xi32> {hls.name = "A"},
                %B: memref<16x16xi32> {hls.name = "B"}) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %c = affine.load %C[%i, %j] : memref<16x16xi32>
      %cb = arith.muli %c, %beta : i32
      affine.store %cb, %C[%i, %j] : memref<16x16xi32>
    } {hls.label = "sj"}
  } {hls.label = "si"}
  affine.for %i = 0 to 16 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 16 {
        %a = affine.load %A[%i, %k] : memref<16x16xi32>
        %aa = arith.muli %alpha, %a : i32
        %b = affine.load %B[%k, %j] : memref<16x16xi32>
        %c = affine.load %C[%i, %j] : memref<16x16xi32>
        %p = arith.muli %aa, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<16x16xi32>
      } {hls.label = "j"}
    } {hls.label = "k"}
  } {hls.label = "i"}
  return
}
