// Integer division sharing under `[limits] div = N`: signed and unsigned
// divisions and remainders of different widths take turns on one divider
// (construct/divider.rs: magnitudes into an unsigned core, the result negated
// where truncating division says), pipelined (II = the operations per
// unit), sequential, and with two units; every design co-simulated bit for
// bit, lint clean, accepted by yosys. Without the directive every
// operation has its own divider.
// RUN: rm -rf %t.b %t.p %t.s %t.two %t.q
// RUN: silica hls %s --top mixed -o %t.b --sim | FileCheck %s --check-prefix=BASE
// RUN: silica hls %s --top mixed -o %t.p --directives %S/directives/div-units.toml --sim | FileCheck %s --check-prefix=PIPE
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.p/mixed.sv
// RUN: yosys -q -p "read_verilog -sv %t.p/mixed.sv; synth_ecp5 -top mixed"
// RUN: silica hls %s --top mixed -o %t.s --directives %S/directives/div-units.toml --no-pipeline --sim --seed 2 | FileCheck %s --check-prefix=SEQ
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.s/mixed.sv
// RUN: silica hls %s --top mixed -o %t.two --directives %S/directives/div-units-2.toml --sim --seed 3 | FileCheck %s --check-prefix=TWO
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.two/mixed.sv
// RUN: silica hls %s --top quotients -o %t.q --directives %S/directives/div-units.toml --sim --seed 4 | FileCheck %s --check-prefix=QUOT
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.q/quotients.sv
// RUN: yosys -q -p "read_verilog -sv %t.q/quotients.sv; synth_ice40 -dsp -top quotients"

// BASE: co-simulation (seed 1): 112 values match
// BASE: mixed/i: trip 16, pipelined, II 1 (ResMII 1, RecMII 1)
// PIPE: co-simulation (seed 1): 112 values match
// PIPE: mixed/i: trip 16, pipelined, II 5 (ResMII 5, RecMII 1)
// PIPE: limits: div = 1 (directives file): honoured: 5 div operation(s) on 1 unit(s)
// SEQ: co-simulation (seed 2): 112 values match
// SEQ: limits: div = 1 (directives file): honoured: 5 div operation(s) on 1 unit(s)
// TWO: co-simulation (seed 3): 112 values match
// TWO: mixed/i: trip 16, pipelined, II 3 (ResMII 3, RecMII 1)
// TWO: limits: div = 2 (directives file): honoured: 5 div operation(s) on 2 unit(s)
// QUOT: co-simulation (seed 4): 64 values match
// QUOT: quotients/i: trip 16, pipelined, II 2 (ResMII 2, RecMII 1)
// QUOT: limits: div = 1 (directives file): honoured: 2 div operation(s) on 1 unit(s)
func.func @mixed(%a: memref<16xi16>, %b: memref<16xi16>, %o0: memref<16xi16>,
                 %o1: memref<16xi16>, %o2: memref<16xi16>, %o3: memref<16xi16>,
                 %o4: memref<16xi8>) {
  %one = arith.constant 1 : i16
  affine.for %i = 0 to 16 {
    %x0 = affine.load %a[%i] : memref<16xi16>
    %y0 = affine.load %b[%i] : memref<16xi16>
    // A dividend that is never the most negative value, a divisor never 0.
    %x = arith.shrsi %x0, %one : i16
    %y = arith.ori %y0, %one : i16
    %q0 = arith.divsi %x, %y : i16
    affine.store %q0, %o0[%i] : memref<16xi16>
    %q1 = arith.divui %x0, %y : i16
    affine.store %q1, %o1[%i] : memref<16xi16>
    %q2 = arith.remsi %x, %y : i16
    affine.store %q2, %o2[%i] : memref<16xi16>
    %q3 = arith.remui %x0, %y : i16
    affine.store %q3, %o3[%i] : memref<16xi16>
    // A narrower signed division on the same unit.
    %xs = arith.trunci %x : i16 to i8
    %ys = arith.trunci %y : i16 to i8
    %c1 = arith.constant 1 : i8
    %xh = arith.shrsi %xs, %c1 : i8
    %q4 = arith.divsi %xh, %ys : i8
    affine.store %q4, %o4[%i] : memref<16xi8>
  } {hls.label = "i"}
  return
}

// Quotients only, signed and unsigned: the unit is one `comb.divu`.
func.func @quotients(%a: memref<16xi32>, %b: memref<16xi32>, %o: memref<16xi32>,
                     %p: memref<16xi32>) {
  %one = arith.constant 1 : i32
  affine.for %i = 0 to 16 {
    %x0 = affine.load %a[%i] : memref<16xi32>
    %y0 = affine.load %b[%i] : memref<16xi32>
    %x = arith.shrsi %x0, %one : i32
    %y = arith.ori %y0, %one : i32
    %q = arith.divsi %x, %y : i32
    %u = arith.divui %x0, %y : i32
    affine.store %q, %o[%i] : memref<16xi32>
    affine.store %u, %p[%i] : memref<16xi32>
  } {hls.label = "i"}
  return
}
