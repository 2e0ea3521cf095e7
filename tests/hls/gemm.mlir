// The bundled example: gemm with its two innermost loops pipelined. Each
// reads and writes C through its one port, so ResMII (and the II) is 2.
// Co-simulated against the software, bit for bit.
// RUN: rm -rf %t.d
// RUN: silica hls %S/../../examples/gemm.mlir --top gemm -o %t.d --sim | FileCheck %s
// RUN: verilator --lint-only -Wall %t.d/gemm.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/gemm.sv; synth_ice40 -dsp -top gemm"
// RUN: FileCheck %s --check-prefix=JSON < %t.d/gemm.json

// CHECK: co-simulation (seed 1): 768 values match, latency 9729 cycles
// CHECK: latency: 9729 cycles ({{.*}}), measured by co-simulation
// CHECK: against the pipelines' bound (sum of iterations x MII + deepest depth = 8708 cycles): 1.12x
// CHECK: gemm/i: trip 16, sequential
// CHECK: gemm/i/scale: trip 16, pipelined, II 2 (ResMII 2, RecMII 1), depth 4
// CHECK: gemm/i/k: trip 16, sequential
// CHECK: gemm/i/k/j: trip 16, pipelined, II 2 (ResMII 2, RecMII 1), depth 4

// JSON: "name": "alpha",
// JSON-NEXT: "kind": "scalar",
// JSON-NEXT: "type": "i32",
// JSON-NEXT: "width": 32
// JSON: "name": "C",
// JSON: "access": "read_write"
