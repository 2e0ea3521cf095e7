// The estimate counts the hard multipliers of a reciprocal division as
// yosys infers them (estimate/price.rs product_tiles): covariance.i32
// divides by 31 as a 65-bit product of the 32-bit dividend, registered
// zero-extended before the product (its zero bits seen through the
// register), and the 33-bit reciprocal: two by two 18-bit chunks, four
// MULT18X18D, twelve in all with the kernel's other products (the
// estimate counted 19 before).
// RUN: rm -rf %t.d
// RUN: silica hls %S/../../examples/polybench/mini/covariance.i32.mlir --top covariance -o %t.d | FileCheck %s
// RUN: yosys -p "read_verilog -sv %t.d/covariance.sv; synth_ecp5 -top covariance; stat" | FileCheck %s --check-prefix=Y

// CHECK: resources (estimate): {{[0-9]+}} LUT, {{[0-9]+}} FF, 12 DSP, 0 BRAM
// Y: Printing statistics
// Y: MULT18X18D 12
