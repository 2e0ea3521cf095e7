// A firmem with an initialisation file (`#seq.firmem.init`): `silica sim`
// starts from the file's words and the Verilog loads the same file with
// `$readmemh`, zeroing the words the file leaves out; Icarus then runs
// exactly as the simulator does, and yosys maps the memory to an iCE40
// block RAM with the file's contents. The file is found relative to the
// working directory, as simulators find it; a missing or malformed file
// is an error at the memory.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: printf '// a small ROM\n0A 1b /* two words */\n@4 ff\n3\n' > %t.d/rom.hex
// RUN: cd %t.d && silica translate --to-verilog %s -o rom.sv
// RUN: FileCheck %s < %t.d/rom.sv
// RUN: cd %t.d && verilator --lint-only -Wall -Wno-DECLFILENAME --top-module rom rom.sv
// RUN: cd %t.d && silica sim %s --top rom --random 600 --seed 2 --testbench tb.sv -o silica.trace
// RUN: cd %t.d && iverilog -g2012 -o rom.vvp rom.sv tb.sv && vvp -N rom.vvp > icarus.trace
// RUN: diff %t.d/silica.trace %t.d/icarus.trace
// Reads see the file's words.
// RUN: FileCheck %s --check-prefix=TRACE < %t.d/silica.trace
// RUN: cd %t.d && yosys -p "read_verilog -sv rom.sv; synth_ice40 -top rom; write_verilog -noattr net.v" | FileCheck %s --check-prefix=BRAM
// RUN: grep -q "INIT_0(256'h0*57570000330a)" %t.d/net.v
// RUN: mkdir -p %t.d/empty && cd %t.d/empty && not silica translate --to-verilog %s -o out.sv 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: test ! -e %t.d/empty/out.sv
// RUN: cd %t.d/empty && not silica sim %s --top rom --random 2 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: printf '0A\n1x\n' > %t.d/empty/rom.hex
// RUN: cd %t.d/empty && not silica sim %s --top rom --random 2 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: module rom(
// CHECK: reg [7:0] m [0:255];
// CHECK: initial begin
// CHECK-NEXT: $readmemh("rom.hex", m);
// CHECK-NEXT: for (int i = 2; i < 4; i++)
// CHECK-NEXT: m[i] = 8'h0;
// CHECK-NEXT: for (int i = 6; i < 256; i++)
// CHECK-NEXT: m[i] = 8'h0;
// CHECK-NEXT: end
// BRAM: SB_RAM40_4K 1
// TRACE: data={{0a|1b|ff}}
// MISSING: memory-init.mlir:[[@LINE+3]]:8: error: cannot read memory initialisation file 'rom.hex'
// BAD: memory-init.mlir:[[@LINE+2]]:8: error: rom.hex: invalid hexadecimal word '1x'
hw.module @rom(in %clk: !seq.clock, in %addr: i8, in %we: i1, in %wdata: i8, out data: i8) {
  %m = seq.firmem 1, 1, undefined, undefined {init = #seq.firmem.init<"rom.hex", false, true>} : <256 x 8>
  seq.firmem.write_port %m[%addr] = %wdata, clock %clk enable %we : <256 x 8>
  %r = seq.firmem.read_port %m[%addr], clock %clk : <256 x 8>
  hw.output %r : i8
}
