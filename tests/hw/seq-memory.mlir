// seq memories, shift registers, FIFOs and clock constants print as
// CIRCT prints them (the expected text is the circt 1.62 wheel's output
// for this input, spacing included).
// RUN: silica opt %s | FileCheck %s --strict-whitespace
// RUN: silica opt %s | silica opt | FileCheck %s --strict-whitespace
// RUN: silica opt %s --mlir-print-op-generic | silica opt | FileCheck %s --strict-whitespace

// CHECK:{{^}}module {
// CHECK-NEXT:{{^}}  hw.module @Ports(in %clock : !seq.clock, in %enable : i1, in %address : i4, in %data : i20, in %mode : i1, in %mask : i4, in %rst : i1) {
// CHECK-NEXT:{{^}}    %mem = seq.firmem 0, 1, undefined, undefined : <12 x 20>
// CHECK-NEXT:{{^}}    %mem2 = seq.firmem sym @x 1, 1, old, port_order : <12 x 20, mask 4>
// CHECK-NEXT:{{^}}    %0 = seq.firmem.read_port %mem[%address], clock %clock : <12 x 20>
// CHECK-NEXT:{{^}}    seq.firmem.write_port %mem2[%address] = %data, clock %clock mask %mask : <12 x 20, mask 4>, i4
// CHECK-NEXT:{{^}}    %1 = seq.firmem.read_write_port %mem2[%address] = %data if %mode, clock %clock enable %enable mask %mask : <12 x 20, mask 4>, i4
// CHECK-NEXT:{{^}}    %myMemory = seq.hlmem @myMemory %clock, %rst : <4x8xi20>
// CHECK-NEXT:{{^}}    %c0_i2 = hw.constant 0 : i2
// CHECK-NEXT:{{^}}    %c0_i3 = hw.constant 0 : i3
// CHECK-NEXT:{{^}}    %myMemory_rdata = seq.read %myMemory[%c0_i2, %c0_i3] rden %enable {latency = 1 : i64} : !seq.hlmem<4x8xi20>
// CHECK-NEXT:{{^}}    seq.write %myMemory[%c0_i2, %c0_i3] %data wren %enable {latency = 1 : i64} : !seq.hlmem<4x8xi20>
// CHECK-NEXT:{{^}}    %r0 = seq.shiftreg[3] %data, %clock, %enable : i20{{  $}}
// CHECK-NEXT:{{^}}    %2 = seq.const_clock  high
// CHECK-NEXT:{{^}}    %out, %full, %empty, %almostFull, %almostEmpty = seq.fifo depth 3 almost_full 2 almost_empty 1 in %data rdEn %mode wrEn %enable clk %clock rst %rst : i20
// CHECK-NEXT:{{^}}    hw.output
// CHECK-NEXT:{{^}}  }
// CHECK-NEXT:{{^}}}
hw.module @Ports(in %clock: !seq.clock, in %enable: i1, in %address: i4, in %data: i20, in %mode: i1, in %mask: i4, in %rst: i1) {
  %mem = seq.firmem 0, 1, undefined, undefined : <12 x 20>
  %mem2 = seq.firmem sym @x 1, 1, old, port_order : <12 x 20, mask 4>
  %0 = seq.firmem.read_port %mem[%address], clock %clock : <12 x 20>
  seq.firmem.write_port %mem2[%address] = %data, clock %clock mask %mask : <12 x 20, mask 4>, i4
  %4 = seq.firmem.read_write_port %mem2[%address] = %data if %mode, clock %clock enable %enable mask %mask : <12 x 20, mask 4>, i4
  %myMemory = seq.hlmem @myMemory %clock, %rst : <4x8xi20>
  %c0_i2 = hw.constant 0 : i2
  %c0_i3 = hw.constant 0 : i3
  %myMemory_rdata = seq.read %myMemory[%c0_i2, %c0_i3] rden %enable { latency = 1} : !seq.hlmem<4x8xi20>
  seq.write %myMemory[%c0_i2, %c0_i3] %data wren %enable { latency = 1 } : !seq.hlmem<4x8xi20>
  %r0 = seq.shiftreg [3] %data, %clock, %enable : i20
  %c = seq.const_clock high
  %out, %full, %empty, %almostFull, %almostEmpty = seq.fifo depth 3 almost_full 2 almost_empty 1 in %data rdEn %mode wrEn %enable clk %clock rst %rst : i20
}
