// --shell uart: the core in a board shell (RAMs, scalar registers, a UART
// and the protocol's controller, built as hw/comb/seq), its pin
// constraints, and the co-simulation's inputs and software outputs for
// silica run-board. The whole shell runs in Verilator behind a
// pseudo-terminal; run-board speaks the protocol to it over the
// simulated serial line: every memory word and result identical to the
// software, and the cycles the shell counts equal to the co-simulation's
// latency. iCEBreaker (ice40-up5k) and ULX3S (ecp5-25k) boards; a fast
// line (a divider of 8) keeps the emulation short.
// The bitstream's top is the shell, its four pins placed on the board.
// RUN: rm -rf %t.sum %t.axpy
// RUN: silica hls %s --top sum -o %t.sum --target ice40-up5k --shell uart --baud 1500000 --sim --bitstream > %t.sum.txt
// RUN: FileCheck %s --check-prefix=SIM < %t.sum.txt
// RUN: FileCheck %s --check-prefix=BIT < %t.sum.txt
// RUN: FileCheck %s --check-prefix=EST < %t.sum.txt
// RUN: test -s %t.sum/sum.bin
// RUN: FileCheck %s --check-prefix=PCF < %t.sum/sum.pcf
// RUN: FileCheck %s --check-prefix=INFO < %t.sum/sum.shell.json
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module sum_shell %t.sum/sum.shell.sv
// RUN: silica run-board %t.sum --emulate --expect %t.sum/sum.expected.txt --outputs %t.sum.out 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: diff %t.sum/sum.expected.txt %t.sum.out
// RUN: silica hls %s --top axpy -o %t.axpy --target ecp5-25k --shell uart --baud 3125000 --sim
// RUN: FileCheck %s --check-prefix=LPF < %t.axpy/axpy.lpf
// RUN: silica run-board %t.axpy --emulate --expect %t.axpy/axpy.expected.txt --outputs %t.axpy.out
// RUN: diff %t.axpy/axpy.expected.txt %t.axpy.out

// Refusals: no board for the target, a rate the clock cannot divide;
// nothing written.
// RUN: rm -rf %t.bad
// RUN: not silica hls %s --top sum -o %t.bad --target ice40-hx8k --shell uart 2>&1 | FileCheck %s --check-prefix=NOBOARD
// RUN: not silica hls %s --top sum -o %t.bad --target ice40-up5k --shell uart --baud 5000000 2>&1 | FileCheck %s --check-prefix=BAUD
// RUN: test ! -e %t.bad
// RUN: not silica run-board %t.axpy --emulate --inputs %s 2>&1 | FileCheck %s --check-prefix=INPUTS

// SIM: co-simulation (seed 1): 17 values match, latency 35 cycles
// PCF: set_io -nowarn clock 35
// PCF: set_io -nowarn uart_rx 6
// PCF: set_io -nowarn uart_tx 9
// INFO: "module": "sum_shell",
// INFO: "board": "iCEBreaker",
// INFO: "divider": 8
// RAN: run-board: 17 values match {{.*}}sum.expected.txt, 35 cycles
// LPF: LOCATE COMP "clock" SITE "G2";
// LPF: LOCATE COMP "uart_tx" SITE "L4";
// The estimate counts the core's flip-flops that yosys keeps (50 of its
// 64 register bits) and no scan wrapper.
// EST: resources (estimate): {{[0-9]+}} LC ({{[0-9]+}} LUT4), 50 FF,
// BIT: resources (measured by yosys and nextpnr, ice40-up5k sg48): {{[0-9]+}} LC ({{[0-9]+}} LUT4 in the netlist), {{[0-9]+}} FF, {{[0-9]+}} DSP, {{[0-9]+}} BRAM, 4 IO
// BIT-NEXT: board shell: sum_shell on the iCEBreaker (4 pins constrained by sum.pcf), clocked by the board's 12 MHz oscillator
// BIT: clock 83.333 ns (12.00 MHz) met
// BIT: bitstream: sum.bin
// NOBOARD: error: --shell uart: no board is known for target 'ice40-hx8k'
// BAUD: error: --shell uart: 5000000 baud is out of reach of the iCEBreaker's 12 MHz clock
// INPUTS: error: {{.*}}shell.mlir: line 1: a value before any

func.func @sum(%a: memref<16xi8> {hls.name = "A"}, %n: i8) -> i8 {
  %r = affine.for %i = 0 to 16 iter_args(%s = %n) -> i8 {
    %x = affine.load %a[%i] : memref<16xi8>
    %m = arith.muli %x, %x : i8
    %t = arith.addi %s, %m : i8
    affine.store %t, %a[%i] : memref<16xi8>
    affine.yield %t : i8
  }
  return %r : i8
}

func.func @axpy(%x: memref<8xi32> {hls.name = "X"}, %y: memref<8xi32> {hls.name = "Y"},
                %z: memref<8xi32> {hls.name = "Z"}, %a: i32 {hls.name = "a"}) -> (i32, i16) {
  %c0 = arith.constant 0 : i32
  %r = affine.for %i = 0 to 8 iter_args(%s = %c0) -> i32 {
    %u = affine.load %x[%i] : memref<8xi32>
    %v = affine.load %y[%i] : memref<8xi32>
    %m = arith.muli %a, %u : i32
    %t = arith.addi %m, %v : i32
    affine.store %t, %z[%i] : memref<8xi32>
    %n = arith.xori %s, %t : i32
    affine.yield %n : i32
  }
  %h = arith.trunci %r : i32 to i16
  return %r, %h : i32, i16
}
