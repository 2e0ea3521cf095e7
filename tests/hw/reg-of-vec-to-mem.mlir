// --seq-reg-of-vec-to-mem: a register of an array written one element at
// a time and read by index becomes a seq.firmem with a read port per read
// and a write port; registers used otherwise stay. The simulator gives
// the same trace before and after; the lowered Verilog lints, runs in
// Icarus as the simulator runs it, and its memory synthesises to block RAM.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica opt --seq-reg-of-vec-to-mem %s -o %t.d/lowered.mlir
// RUN: FileCheck %s < %t.d/lowered.mlir
// RUN: silica sim %s --top regfile --random 200 --seed 11 -o %t.d/before.trace
// RUN: silica sim %t.d/lowered.mlir --top regfile --random 200 --seed 11 -o %t.d/after.trace
// RUN: diff %t.d/before.trace %t.d/after.trace
// RUN: silica translate --to-verilog %t.d/lowered.mlir -o %t.d/lowered.sv
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME -Wno-UNUSEDSIGNAL --top-module regfile %t.d/lowered.sv
// RUN: silica sim %t.d/lowered.mlir --top regfile --random 200 --seed 11 --testbench %t.d/tb.sv -o %t.d/tb.trace
// RUN: iverilog -g2012 -o %t.d/r.vvp %t.d/lowered.sv %t.d/tb.sv && vvp -N %t.d/r.vvp > %t.d/icarus.trace
// RUN: diff %t.d/tb.trace %t.d/icarus.trace
// RUN: yosys -p "read_verilog -sv %t.d/lowered.sv; synth_ice40 -top bram" | FileCheck %s --check-prefix=YOSYS

// CHECK-LABEL: hw.module @regfile
// CHECK: %mem = seq.firmem 0, 1, undefined, undefined : <16 x 8, mask 1>
// CHECK-NEXT: %[[T0:.+]] = hw.constant true
// CHECK-NEXT: %[[A:.+]] = seq.firmem.read_port %mem[%ra], clock %clk enable %[[T0]] : <16 x 8, mask 1>
// CHECK-NEXT: %[[T1:.+]] = hw.constant true
// CHECK-NEXT: %[[B:.+]] = seq.firmem.read_port %mem[%rb], clock %clk enable %[[T1]] : <16 x 8, mask 1>
// CHECK-NEXT: seq.firmem.write_port %mem[%wa] = %wd, clock %clk enable %we : <16 x 8, mask 1>
// CHECK-NEXT: hw.output %[[A]], %[[B]] : i8, i8
hw.module @regfile(in %clk: !seq.clock, in %ra: i4, in %rb: i4, in %wa: i4, in %wd: i8, in %we: i1, out a: i8, out b: i8) {
  %a = hw.array_get %regs[%ra] : !hw.array<16xi8>, i4
  %b = hw.array_get %regs[%rb] : !hw.array<16xi8>, i4
  %w = hw.array_inject %regs[%wa], %wd : !hw.array<16xi8>, i4
  %next = comb.mux %we, %w, %regs : !hw.array<16xi8>
  %regs = seq.firreg %next clock %clk : !hw.array<16xi8>
  hw.output %a, %b : i8, i8
}

// A register with a reset keeps its reset: it stays a register.
// CHECK-LABEL: hw.module @with_reset
// CHECK: %regs = seq.firreg
// CHECK-NEXT: hw.output
hw.module @with_reset(in %clk: !seq.clock, in %rst: i1, in %ra: i2, in %wa: i2, in %wd: i8, in %we: i1, out a: i8) {
  %zero = hw.aggregate_constant [0 : i8, 0 : i8, 0 : i8, 0 : i8] : !hw.array<4xi8>
  %a = hw.array_get %regs[%ra] : !hw.array<4xi8>, i2
  %w = hw.array_inject %regs[%wa], %wd : !hw.array<4xi8>, i2
  %next = comb.mux %we, %w, %regs : !hw.array<4xi8>
  %regs = seq.firreg %next clock %clk reset sync %rst, %zero : !hw.array<4xi8>
  hw.output %a : i8
}

// A memory read with one registered port, as block RAM reads: yosys maps it
// to an ice40 RAM.
// YOSYS: SB_RAM40_4K 1
hw.module @bram(in %clk: !seq.clock, in %ra: i8, in %wa: i8, in %wd: i16, in %we: i1, out a: i16) {
  %rd = hw.array_get %regs[%ra] : !hw.array<256xi16>, i8
  %w = hw.array_inject %regs[%wa], %wd : !hw.array<256xi16>, i8
  %next = comb.mux %we, %w, %regs : !hw.array<256xi16>
  %regs = seq.firreg %next clock %clk : !hw.array<256xi16>
  %q = seq.compreg %rd, %clk : i16
  hw.output %q : i16
}
