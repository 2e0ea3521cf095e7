// The estimate counts the hard multipliers yosys infers. covariance.i32
// divides by 31 as a 65-bit product of the 32-bit dividend and the
// 33-bit reciprocal; on ecp5-25k its adds cost fewer LUTs than the four
// MULT18X18D yosys made of it (12 in all before, with the kernel's other
// products), so it is built as shifts and adds (constant_product.rs),
// as are the kernel's other products by constants: three MULT18X18D
// are left, the products of two variables, and the estimate counts
// three.
// RUN: rm -rf %t.d
// RUN: silica hls %S/../../examples/polybench/mini/covariance.i32.mlir --top covariance -o %t.d | FileCheck %s
// RUN: yosys -p "read_verilog -sv %t.d/covariance.sv; synth_ecp5 -top covariance; stat" | FileCheck %s --check-prefix=Y

// CHECK: resources (estimate): {{[0-9]+}} LUT, {{[0-9]+}} FF, 3 DSP, 0 BRAM
// CHECK-NEXT: products by constants: 8 as shifts and adds, 0 negated, 0 on multipliers
// Y: Printing statistics
// Y: MULT18X18D 3
