// Struct fields and ports whose names are not identifiers are quoted, as
// CIRCT 1.62 prints them (the expected text is the circt wheel's output);
// a value named after such a field gets MLIR's legal SSA name.
// RUN: silica opt %s | FileCheck %s
// RUN: silica opt %s | silica opt | FileCheck %s
// RUN: silica opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK: hw.module @m(in %o : !hw.struct<reg: i3, "a b": i1, c: i2, "0x": i1>, out "r s" : !hw.struct<"a b": i1>, out "2" : i1) {
// CHECK-NEXT: %a_b = hw.struct_extract %o["a b"] : !hw.struct<reg: i3, "a b": i1, c: i2, "0x": i1>
// CHECK-NEXT: %_0x = hw.struct_extract %o["0x"] : !hw.struct<reg: i3, "a b": i1, c: i2, "0x": i1>
// CHECK-NEXT: %0 = hw.struct_create (%a_b) : !hw.struct<"a b": i1>
// CHECK-NEXT: hw.output %0, %_0x : !hw.struct<"a b": i1>, i1
// GENERIC: module_type = !hw.modty<input o : !hw.struct<reg: i3, "a b": i1, c: i2, "0x": i1>, output "r s" : !hw.struct<"a b": i1>, output "2" : i1>
hw.module @m(in %o: !hw.struct<reg: i3, "a b": i1, "c": i2, "0x": i1>, out "r s": !hw.struct<"a b": i1>, out "2": i1) {
  %x = hw.struct_extract %o["a b"] : !hw.struct<reg: i3, "a b": i1, "c": i2, "0x": i1>
  %z = hw.struct_extract %o["0x"] : !hw.struct<reg: i3, "a b": i1, "c": i2, "0x": i1>
  %y = hw.struct_create (%x) : !hw.struct<"a b": i1>
  hw.output %y, %z : !hw.struct<"a b": i1>, i1
}
