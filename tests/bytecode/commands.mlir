// The commands that read a module take bytecode as they take text (told
// by its magic): `silica hls` builds the same design, `silica dse` finds
// the same points, `silica cosim` runs the same program. What they report
// about the input points where its ops came from.
// RUN: rm -rf %t.text %t.bc %t.dse-text %t.dse-bc %t.cosim
// RUN: silica opt --emit-bytecode %s -o %t.mlirbc
// RUN: silica hls %s --top dot -o %t.text > /dev/null
// RUN: silica hls %t.mlirbc --top dot -o %t.bc > /dev/null
// RUN: cmp %t.text/dot.sv %t.bc/dot.sv
// RUN: cmp %t.text/dot.json %t.bc/dot.json
// RUN: not silica hls %t.mlirbc --top nothere -o %t.bad 2>&1 | FileCheck %s --check-prefix=TOP
// TOP: commands.mlir:{{[0-9]+}}:1: error: no function named 'nothere'
// RUN: printf '[[loop]]\nname = "dot/0"\nunroll = [1, 2]\n' > %t.space.toml
// RUN: silica dse %s --top dot --space %t.space.toml -o %t.dse-text > /dev/null
// RUN: silica dse %t.mlirbc --top dot --space %t.space.toml -o %t.dse-bc > /dev/null
// RUN: diff %t.dse-text/points.csv %t.dse-bc/points.csv
// RUN: silica opt --emit-bytecode %S/../gpu/cosim.mlir -o %t.cosim.mlirbc
// RUN: silica cosim %t.cosim.mlirbc --kernel axpy --gpu --gpu-driver fake -o %t.cosim | FileCheck %s --check-prefix=COSIM
// COSIM: GPU co-simulation of 'axpy': {{[0-9]+}} lines of output identical

func.func @dot(%a: memref<16xi32> {hls.name = "a"}, %b: memref<16xi32> {hls.name = "b"}) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = affine.for %i = 0 to 16 iter_args(%acc = %c0) -> (i32) {
    %x = affine.load %a[%i] : memref<16xi32>
    %y = affine.load %b[%i] : memref<16xi32>
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    affine.yield %s : i32
  }
  return %r : i32
}
