// The PolyBench-style C programs of examples/polybench-c: a kernel
// schedules as its affine MLIR twin of examples/polybench (the same
// cycles): gemm and jacobi-2d (its line buffers) in float, ludcmp (a
// loop counting down, triangular loops carrying a scalar) and nussinov
// (conditions as affine.if, chars) in int; and one whole program, its
// arrays dumped on standard error, through silica cosim.
// RUN: rm -rf %t.*
// RUN: (silica hls %S/../../examples/polybench/mini/gemm.f32.mlir --top gemm -o %t.m1 && silica hls %S/../../examples/polybench-c/gemm.c --top kernel_gemm -DDATA_TYPE_IS_FLOAT -o %t.c1) | FileCheck %s --check-prefix=SAME
// RUN: (silica hls %S/../../examples/polybench/mini/jacobi-2d.f32.mlir --top jacobi_2d -o %t.m2 && silica hls %S/../../examples/polybench-c/jacobi-2d.c --top kernel_jacobi_2d -DDATA_TYPE_IS_FLOAT -o %t.c2) | FileCheck %s --check-prefix=SAME
// RUN: (silica hls %S/../../examples/polybench/mini/ludcmp.i32.mlir --top ludcmp -o %t.m3 && silica hls %S/../../examples/polybench-c/ludcmp.c --top kernel_ludcmp -DDATA_TYPE_IS_INT -o %t.c3) | FileCheck %s --check-prefix=SAME
// RUN: (silica hls %S/../../examples/polybench/mini/nussinov.i32.mlir --top nussinov -o %t.m4 && silica hls %S/../../examples/polybench-c/nussinov.c --top kernel_nussinov -DDATA_TYPE_IS_INT -o %t.c4) | FileCheck %s --check-prefix=SAME
// RUN: silica cosim %S/../../examples/polybench-c/nussinov.c --kernel kernel_nussinov -DDATA_TYPE_IS_INT -o %t.sys | FileCheck %s --check-prefix=COSIM
// RUN: FileCheck %s --check-prefix=DUMP < %t.sys/software.stderr

// SAME: latency: [[L:[0-9]+]] cycles
// SAME: latency: [[L]] cycles
// COSIM: system co-simulation of 'kernel_nussinov': 1 lines of output and 182 of error output identical
// DUMP: begin dump: table
// DUMP: end   dump: table
