// Read ports with a read latency above one: the word addressed at an
// enabled edge is captured in the port's data register (as at latency
// one), then moves through one more register per cycle of latency, on
// every edge. Unused reads get no registers. Verilator lints it clean,
// yosys still maps the firmem to one iCE40 block RAM (the pipeline is
// flip-flops after it), and Icarus runs it exactly as `silica sim` does.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica translate --to-verilog %s -o %t.d/rl.sv
// RUN: FileCheck %s < %t.d/rl.sv
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.d/rl.sv
// RUN: yosys -p "read_verilog -sv %t.d/rl.sv; synth_ice40 -top lat" | FileCheck %s --check-prefix=BRAM
// RUN: silica sim %s --top lat --random 400 --seed 2 --testbench %t.d/tb.sv -o %t.d/silica.trace
// RUN: iverilog -g2012 -o %t.d/rl.vvp %t.d/rl.sv %t.d/tb.sv
// RUN: vvp -N %t.d/rl.vvp > %t.d/icarus.trace
// RUN: diff %t.d/silica.trace %t.d/icarus.trace

// CHECK: reg [15:0] ram_rdata;
// CHECK-NEXT: reg [15:0] ram_rdata_0;
// CHECK-NEXT: reg [15:0] ram_rdata_1;
// CHECK-NOT: ram_rdata_2
// CHECK: assign r1 = ram_rdata_1;
// CHECK: if (re)
// CHECK-NEXT: ram_rdata <= ram[raddr];
// CHECK-NEXT: ram_rdata_0 <= ram_rdata;
// CHECK-NEXT: ram_rdata_1 <= ram_rdata_0;
// BRAM: SB_RAM40_4K 1
hw.module @lat(in %clk: !seq.clock, in %we: i1, in %waddr: i8, in %wdata: i16, in %re: i1, in %raddr: i8, out r1: i16, out r3: i16) {
  %ram = seq.firmem 3, 1, undefined, undefined : <256 x 16>
  seq.firmem.write_port %ram[%waddr] = %wdata, clock %clk enable %we : <256 x 16>
  %a = seq.firmem.read_port %ram[%raddr], clock %clk enable %re : <256 x 16>
  %b = seq.firmem.read_port %ram[%waddr], clock %clk : <256 x 16>
  %h = seq.hlmem @h %clk, %we : <4xi8>
  %hr = seq.read %h[%i2] rden %re {latency = 2} : !seq.hlmem<4xi8>
  %i2 = comb.extract %raddr from 0 : (i8) -> i2
  %x = comb.extract %wdata from 0 : (i16) -> i8
  seq.write %h[%i2] %x wren %we {latency = 1} : !seq.hlmem<4xi8>
  %hz = comb.concat %hr, %hr : i8, i8
  hw.output %a, %hz : i16, i16
}
