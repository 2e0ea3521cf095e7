// Memories, shift registers and FIFOs: a firmem with a synchronous read port is
// mapped by yosys to one iCE40 block RAM; masked, read-write,
// non-power-of-two and multi-dimensional memories, and shift registers,
// lint clean, synthesise, and simulate in Icarus exactly as `silica sim`
// does.

// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica translate --to-verilog %s -o %t.d/mem.sv
// RUN: FileCheck %s < %t.d/mem.sv
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module bram %t.d/mem.sv
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module mems %t.d/mem.sv
// RUN: yosys -p "read_verilog -sv %t.d/mem.sv; synth_ice40 -top bram" | FileCheck %s --check-prefix=BRAM
// RUN: yosys -q -p "read_verilog -sv %t.d/mem.sv; synth_ice40 -dsp -top mems"
// RUN: silica sim %s --top bram --random 300 --seed 3 --testbench %t.d/tb_bram.sv -o %t.d/silica_bram.trace
// RUN: iverilog -g2012 -s tb -o %t.d/bram.vvp %t.d/mem.sv %t.d/tb_bram.sv
// RUN: vvp -N %t.d/bram.vvp > %t.d/icarus_bram.trace
// RUN: diff %t.d/silica_bram.trace %t.d/icarus_bram.trace
// RUN: silica sim %s --top mems --random 300 --seed 4 --testbench %t.d/tb_mems.sv -o %t.d/silica_mems.trace
// RUN: iverilog -g2012 -s tb -o %t.d/mems.vvp %t.d/mem.sv %t.d/tb_mems.sv
// RUN: vvp -N %t.d/mems.vvp > %t.d/icarus_mems.trace
// RUN: diff %t.d/silica_mems.trace %t.d/icarus_mems.trace

// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module fifos %t.d/mem.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/mem.sv; synth_ice40 -dsp -top fifos"
// RUN: silica sim %s --top fifos --random 400 --seed 9 --testbench %t.d/tb_fifos.sv -o %t.d/silica_fifos.trace
// RUN: iverilog -g2012 -s tb -o %t.d/fifos.vvp %t.d/mem.sv %t.d/tb_fifos.sv
// RUN: vvp -N %t.d/fifos.vvp > %t.d/icarus_fifos.trace
// RUN: diff %t.d/silica_fifos.trace %t.d/icarus_fifos.trace
// The random stimuli fill the first FIFO and cross the second's thresholds.
// RUN: FileCheck %s --check-prefix=TRACE < %t.d/silica_fifos.trace
// TRACE: full=1
// TRACE: af=1

// BRAM: Printing statistics
// BRAM: SB_RAM40_4K 1

// CHECK-LABEL: module bram(
// CHECK: (* no_rw_check *)
// CHECK-NEXT: reg [15:0] ram [0:255];
// CHECK: always_ff @(posedge clk) begin
// CHECK-NEXT: if (we)
// CHECK-NEXT: ram[waddr] <= wdata;
// CHECK: if (re)
// CHECK-NEXT: ram_rdata <= ram[raddr];
hw.module @bram(in %clk: !seq.clock, in %we: i1, in %waddr: i8, in %wdata: i16, in %re: i1, in %raddr: i8, out rdata: i16) {
  %ram = seq.firmem 1, 1, undefined, undefined : <256 x 16>
  seq.firmem.write_port %ram[%waddr] = %wdata, clock %clk enable %we : <256 x 16>
  %r = seq.firmem.read_port %ram[%raddr], clock %clk enable %re : <256 x 16>
  hw.output %r : i16
}

// CHECK-LABEL: module mems(
// CHECK: (* no_rw_check *)
// CHECK-NEXT: reg [11:0] small_0 [0:11];
// CHECK-NEXT: reg [11:0] rw [0:11];
// CHECK: wire [11:0] small_0_rdata = a < 4'hC ? small_0[a] : 12'h0;
// CHECK: wire [11:0] hl_rdata_1 = hl[{x, y}];
// CHECK: if (en && (a < 4'hC) && m[2])
// CHECK-NEXT: small_0[a][11:8] <= d[11:8];
// CHECK: if (en && !mode)
// CHECK-NEXT: rw_rdata <= a < 4'hC ? rw[a] : 12'h0;
// CHECK: sh_sh3 <= sh_sh2;
// CHECK: initial sh_sh3 = 12'h5;

hw.module @mems(in %clk: !seq.clock, in %rst: i1, in %en: i1, in %mode: i1, in %a: i4, in %d: i12, in %m: i3, in %x: i2, in %y: i3, out o0: i12, out o1: i12, out o2: i12, out o3: i12, out o4: i12, out o5: i12) {
  %small = seq.firmem 0, 1, undefined, undefined : <12 x 12, mask 3>
  seq.firmem.write_port %small[%a] = %d, clock %clk enable %en mask %m : <12 x 12, mask 3>, i3
  %r0 = seq.firmem.read_port %small[%a], clock %clk : <12 x 12, mask 3>
  %rw = seq.firmem 1, 1, old, undefined : <12 x 12>
  %r1 = seq.firmem.read_write_port %rw[%a] = %d if %mode, clock %clk enable %en : <12 x 12>
  %hl = seq.hlmem @hl %clk, %rst : <4x8xi12>
  seq.write %hl[%x, %y] %d wren %mode {latency = 1} : !seq.hlmem<4x8xi12>
  %r2 = seq.read %hl[%x, %y] {latency = 0} : !seq.hlmem<4x8xi12>
  %r3 = seq.read %hl[%x, %y] rden %en {latency = 1} : !seq.hlmem<4x8xi12>
  %c5 = hw.constant 5 : i12
  %sh = seq.shiftreg [3] %d, %clk, %en reset %rst, %c5 powerOn %c5 : i12
  %sh2 = seq.shiftreg [2] %r0, %clk, %mode : i12
  hw.output %r0, %r1, %r2, %r3, %sh, %sh2 : i12, i12, i12, i12, i12, i12
}

// A FIFO filled faster than it is drained (reset one cycle in 16), and
// one with a registered output and both thresholds.
// CHECK-LABEL: module fifos(
// CHECK: wire fifo_do_write = {{.+}} && !fifo_full;
// CHECK: fifo_wr_addr <= fifo_wr_addr == 2'h2 ? 2'h0 : fifo_wr_addr + 2'h1;
hw.module @fifos(in %clk: !seq.clock, in %r: i4, in %in: i8, in %rd: i2, in %wr: i2, in %arr: !hw.array<2xi4>, out o: i8, out full: i1, out empty: i1, out o2: !hw.array<2xi4>, out f2: i1, out e2: i1, out af: i1, out ae: i1) {
  %ones = hw.constant -1 : i4
  %rst = comb.icmp eq %r, %ones : i4
  %rdEn = comb.icmp eq %rd, %ones2 : i2
  %ones2 = hw.constant -1 : i2
  %zero2 = hw.constant 0 : i2
  %wrEn = comb.icmp ne %wr, %zero2 : i2
  %out, %full, %empty = seq.fifo depth 3 in %in rdEn %rdEn wrEn %wrEn clk %clk rst %rst : i8
  %o2, %f2, %e2, %af, %ae = seq.fifo depth 4 rd_latency 1 almost_full 2 almost_empty 1 in %arr rdEn %wrEn wrEn %rdEn clk %clk rst %rst : !hw.array<2xi4>
  hw.output %out, %full, %empty, %o2, %f2, %e2, %af, %ae : i8, i1, i1, !hw.array<2xi4>, i1, i1, i1, i1
}
