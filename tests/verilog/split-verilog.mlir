// `--split-verilog -o DIR`: one file per module, typedefs (with
// `--full-sv`) in one named after their type scope, listed in
// compilation order in `filelist.f`; together they are the single-file
// output, and Verilator lints them clean. A design with an error writes
// nothing; without `-o` it is an error.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica translate --to-verilog --split-verilog %s -o %t.d/split
// RUN: FileCheck %s --check-prefix=LIST < %t.d/split/filelist.f
// RUN: FileCheck %s --check-prefix=LEAF < %t.d/split/leaf.sv
// RUN: FileCheck %s --check-prefix=TOP < %t.d/split/top.sv
// RUN: cd %t.d/split && verilator --lint-only -Wall -Wno-DECLFILENAME --top-module top $(cat filelist.f)
// RUN: silica translate --to-verilog %s -o %t.d/one.sv
// RUN: cd %t.d/split && for f in $(cat filelist.f); do cat $f; echo; done | head -n -1 > %t.d/joined.sv
// RUN: diff %t.d/one.sv %t.d/joined.sv
// RUN: silica translate --to-verilog --full-sv --split-verilog %s -o %t.d/full
// RUN: FileCheck %s --check-prefix=FULL < %t.d/full/filelist.f
// RUN: FileCheck %s --check-prefix=TYPES < %t.d/full/types.sv
// RUN: cd %t.d/full && verilator --lint-only -Wall -Wno-DECLFILENAME --top-module top $(cat filelist.f)
// RUN: not silica translate --to-verilog --split-verilog %s 2>&1 | FileCheck %s --check-prefix=NODIR
// RUN: printf 'hw.module @bad(in %%a: i8) {\n  %%0 = hw.struct_create (%%a) : !hw.struct<x: i8>\n  %%1 = comb.reverse %%a : i8\n  %%2 = hw.bitcast %%0 : (!hw.struct<x: i8>) -> !seq.clock\n}\n' > %t.d/bad.mlir
// RUN: not silica translate --to-verilog --split-verilog %t.d/bad.mlir -o %t.d/bad
// RUN: test ! -e %t.d/bad

// LIST: leaf.sv
// LIST-NEXT: top.sv
// LEAF: module leaf(
// LEAF-NOT: module top
// TOP: module top(
// TOP: leaf l (
// FULL: types.sv
// FULL-NEXT: leaf.sv
// FULL-NEXT: top.sv
// TYPES: typedef struct packed {logic [7:0] a; logic [3:0] b; } pair_t;
// NODIR: error: --split-verilog writes a directory of files: give it with -o DIR
hw.type_scope @types {
  hw.typedecl @pair_t : !hw.struct<a: i8, b: i4>
}
!pair = !hw.typealias<@types::@pair_t, !hw.struct<a: i8, b: i4>>
hw.module @leaf(in %p: !pair, out q: i8, out r: i4) {
  %a = hw.struct_extract %p["a"] : !pair
  %b = hw.struct_extract %p["b"] : !pair
  hw.output %a, %b : i8, i4
}
hw.module @top(in %x: i8, in %y: i4, out q: i8, out r: i4) {
  %p = hw.struct_create (%x, %y) : !pair
  %q, %r = hw.instance "l" @leaf(p: %p: !pair) -> (q: i8, r: i4)
  hw.output %q, %r : i8, i4
}
