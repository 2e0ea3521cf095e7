// Memories the simulator and the emitter do not support are errors at
// the op, and nothing is written.
// RUN: rm -f %t.sv
// RUN: not silica translate --to-verilog %s -o %t.sv 2>&1 | FileCheck %s
// RUN: test ! -e %t.sv
// RUN: not silica sim %s --top latency --random 3 2>&1 | FileCheck %s
// CHECK: memory-errors.mlir:[[# @LINE + 2]]:10: error: memories with read latency 2 and write latency 2 are not supported (read latency 0 to 64, write latency 1)
hw.module @latency(in %clk: !seq.clock, in %a: i4, out o: i8) {
  %mem = seq.firmem 2, 2, undefined, undefined : <16 x 8>
  %r = seq.firmem.read_port %mem[%a], clock %clk : <16 x 8>
  hw.output %r : i8
}
