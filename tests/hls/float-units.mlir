// [limits] on float units: fadd (subtractions run on the adder with the
// second operand negated), fmul and fdiv shared by the operations of a
// pipelined loop (II from the units: 3 additions on one adder, or on two
// at II 2), of a sequential design, and of a reduction unrolled by 4 (at
// most two adders allowed, one used: its additions are chained); a
// kernel mixing f32 and f64 additions shares only the first format's.
// At a clock long enough for a combinational operator (the f32
// adder at 50 ns in `chain`, the multiplier at 150 ns in `prod`, whose
// products feed the unit again) a shared unit still gets a pipeline
// stage: its result reaches its own operand mux (the next
// user's operands), a loop the stage's register breaks (the simulator
// and the emitter see that the unit's output depends on no input in the
// cycle, and yosys finds no logic loop). A kernel whose only additions
// are subtractions shares the adder too, and the report's float
// operators are the modules built: the adder, no subtractor.
// Co-simulated bit for bit; lint clean; two shared designs through yosys.
// RUN: rm -rf %t.p %t.two %t.s %t.r %t.m %t.c %t.sub %t.prod
// RUN: silica hls %s --top chain -o %t.p --directives %S/directives/float-units.toml --sim | FileCheck %s --check-prefix=PIPE
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.p/chain.sv
// RUN: silica hls %s --top chain -o %t.two --directives %S/directives/float-units-2.toml --sim --seed 2 | FileCheck %s --check-prefix=TWO
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.two/chain.sv
// RUN: silica hls %s --top chain -o %t.s --directives %S/directives/float-units.toml --no-pipeline --sim --seed 3 | FileCheck %s --check-prefix=SEQ
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.s/chain.sv
// RUN: silica hls %s --top dot -o %t.r --directives %S/directives/float-units-dot.toml --sim | FileCheck %s --check-prefix=DOT
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.r/dot.sv
// RUN: yosys -q -p "read_verilog -sv %t.r/dot.sv; synth_ice40 -dsp -top dot"
// RUN: silica hls %s --top mixed -o %t.m --directives %S/directives/float-units.toml --sim | FileCheck %s --check-prefix=MIXED
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.m/mixed.sv
// RUN: silica hls %s --top chain -o %t.c --directives %S/directives/float-units.toml --clock-ns 50 --sim --seed 4 2>&1 | FileCheck %s --check-prefix=SLOW
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.c/chain.sv
// RUN: silica hls %s --top prod -o %t.prod --directives %S/directives/float-units.toml --clock-ns 150 --sim --seed 6 | FileCheck %s --check-prefix=PROD
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.prod/prod.sv
// RUN: yosys -q -p "read_verilog -sv %t.prod/prod.sv; hierarchy -top prod; proc; flatten; check -assert; synth_ice40 -dsp -top prod"
// RUN: silica hls %s --top subs -o %t.sub --directives %S/directives/float-units.toml --sim --seed 5 | FileCheck %s --check-prefix=SUB
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.sub/subs.sv
// RUN: FileCheck %s --check-prefix=BUILT < %t.sub/subs.sv

// PIPE: co-simulation (seed 1): 48 values match
// PIPE: chain/0: trip 16, pipelined, II 3 (ResMII 3, RecMII 1)
// PIPE-DAG: limits: fadd = 1 (directives file): honoured: 3 fadd operation(s) on 1 unit(s)
// PIPE-DAG: limits: fdiv = 1 (directives file): honoured: 2 fdiv operation(s) on 1 unit(s)
// PIPE-DAG: limits: fmul = 1 (directives file): honoured: 2 fmul operation(s) on 1 unit(s)
// TWO: co-simulation (seed 2): 48 values match
// TWO: chain/0: trip 16, pipelined, II 2 (ResMII 2, RecMII 1)
// TWO: limits: fadd = 2 (directives file): honoured: 3 fadd operation(s) on 2 unit(s)
// SEQ: co-simulation (seed 3): 48 values match
// SEQ: limits: fadd = 1 (directives file): honoured: 3 fadd operation(s) on 1 unit(s)
// DOT: co-simulation (seed 1): 65 values match
// DOT: limits: fadd = 2 (directives file): honoured: 4 fadd operation(s) on 1 unit(s)
// SLOW-NOT: warning
// SLOW: co-simulation (seed 4): 48 values match
// The shared units' last stages reach their own operand multiplexers
// and first stages at 51.4 ns: their pipelines are deepened for the 50 ns
// clock.
// SLOW: silica_fadd_f32_l2: 2 cycles
// SLOW: silica_fmul_f32_l2: 2 cycles
// SLOW: note: float pipelines deepened for the clock: silica_fadd_f32_l2 after {{[0-9.]+}} ns of logic before its operands, silica_fmul_f32_l2 after {{[0-9.]+}} ns of logic before its operands
// SLOW-DAG: limits: fadd = 1 (directives file): honoured: 3 fadd operation(s) on 1 unit(s)
// SLOW-DAG: limits: fmul = 1 (directives file): honoured: 2 fmul operation(s) on 1 unit(s)
// PROD: co-simulation (seed 6): 24 values match
// PROD: prod/0: trip 8, pipelined, II 3 (ResMII 3, RecMII 1)
// PROD: silica_fmul_f32_l1: 1 cycles
// PROD: limits: fmul = 1 (directives file): honoured: 3 fmul operation(s) on 1 unit(s)
// SUB: co-simulation (seed 5): 24 values match
// SUB: float operators (latency, slowest stage as measured):
// SUB-NEXT: silica_fadd_f32_l{{[0-9]+}}: {{[0-9]+}} cycles
// SUB-NEXT: resources (estimate):
// BUILT-NOT: module silica_fsub
// BUILT: module silica_fadd_f32_l{{[0-9]+}}(
// BUILT-NOT: module silica_fsub
// SUB: limits: fadd = 1 (directives file): honoured: 2 fadd operation(s) on 1 unit(s)
// MIXED: co-simulation (seed 1): 33 values match
// MIXED: limits: fadd = 1 (directives file): honoured: 2 fadd operation(s) on 1 unit(s)
func.func @chain(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xf32>
    %y = affine.load %b[%i] : memref<16xf32>
    %s = arith.addf %x, %y : f32
    %d = arith.subf %x, %y : f32
    %p = arith.mulf %s, %d : f32
    %q = arith.mulf %p, %x : f32
    %r = arith.subf %q, %s : f32
    %t = arith.divf %r, %y : f32
    %u = arith.divf %t, %x : f32
    affine.store %u, %c[%i] : memref<16xf32>
  }
  return
}

func.func @dot(%a: memref<32xf32>, %b: memref<32xf32>) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = affine.for %k = 0 to 32 iter_args(%acc = %z) -> (f32) {
    %x = affine.load %a[%k] : memref<32xf32>
    %y = affine.load %b[%k] : memref<32xf32>
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    affine.yield %s : f32
  } {hls.label = "k"}
  return %r : f32
}

func.func @mixed(%a: memref<16xf32>, %b: memref<16xf64>) -> f64 {
  %z = arith.constant 0.0 : f64
  %r = affine.for %i = 0 to 16 iter_args(%acc = %z) -> (f64) {
    %x = affine.load %a[%i] : memref<16xf32>
    %y = arith.addf %x, %x : f32
    %w = arith.subf %y, %x : f32
    affine.store %w, %a[%i] : memref<16xf32>
    %v = affine.load %b[%i] : memref<16xf64>
    %s = arith.addf %acc, %v : f64
    affine.yield %s : f64
  }
  return %r : f64
}

func.func @prod(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i] : memref<8xf32>
    %y = affine.load %b[%i] : memref<8xf32>
    %p = arith.mulf %x, %y : f32
    %q = arith.mulf %p, %x : f32
    %r = arith.mulf %q, %y : f32
    affine.store %r, %c[%i] : memref<8xf32>
  }
  return
}

func.func @subs(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i] : memref<8xf32>
    %y = affine.load %b[%i] : memref<8xf32>
    %s = arith.subf %x, %y : f32
    %t = arith.subf %s, %y : f32
    affine.store %t, %c[%i] : memref<8xf32>
  }
  return
}
