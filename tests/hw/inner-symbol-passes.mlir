// --hw-bypass-inner-symbols moves port symbols onto wires and reads
// around wires with symbols; --hw-verify-irn rejects a symbol defined
// twice in one module, ports included.
// RUN: silica opt %s --hw-bypass-inner-symbols | FileCheck %s
// RUN: silica opt %s --hw-bypass-inner-symbols --hw-verify-irn | FileCheck %s

// CHECK-LABEL: hw.module @Wires(in %a : i8, in %b : i8, out out : i8)
// CHECK-NEXT: %wire1 = hw.wire %a sym @wire1  : i8
// CHECK-NEXT: %wire2 = hw.wire %b sym @wire2  : i8
// CHECK-NEXT: %0 = comb.add bin %a, %b : i8
// CHECK-NEXT: hw.output %0 : i8
hw.module @Wires(in %a: i8, in %b: i8, out out: i8) {
  %wire1 = hw.wire %a sym @wire1 : i8
  %wire2 = hw.wire %b sym @wire2 : i8
  %result = comb.add bin %wire1, %wire2 : i8
  hw.output %result : i8
}

// CHECK-LABEL: hw.module @Ports(in %a : i32, in %b : i32 {sv.namehint = "b"}, out out : i32)
// CHECK-NEXT: %in = hw.wire %a sym @in  : i32
// CHECK-NEXT: %b2 = hw.wire %b sym @b2  : i32
// CHECK-NEXT: %0 = comb.add bin %a, %b : i32
// CHECK-NEXT: %out = hw.wire %0 sym @out  : i32
// CHECK-NEXT: hw.output %0 : i32
hw.module @Ports(in %a: i32 {hw.exportPort = #hw<innerSym@in>}, in %b: i32 {hw.exportPort = #hw<innerSym@b2>, sv.namehint = "b"}, out out: i32 {hw.exportPort = #hw<innerSym@out>}) {
  %result = comb.add bin %a, %b : i32
  hw.output %result : i32
}
