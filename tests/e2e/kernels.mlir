// The bundled kernels (examples/kernels.mlir) lowered by silica alone to
// LLVM IR: the llvm-dialect module is byte-identical to mlir-opt-22's,
// the LLVM IR passes llvm-as-22 and opt-22's verifier, and lli-22 prints
// the same checksums as the mlir-opt-22 + mlir-translate-22 pipeline.
// RUN: silica opt --lower-affine --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts %S/../../examples/kernels.mlir -o %t.llvm.mlir
// RUN: mlir-opt-22 --lower-affine --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts %S/../../examples/kernels.mlir -o %t.ref.mlir
// RUN: diff %t.llvm.mlir %t.ref.mlir
// RUN: silica translate --to-llvmir %t.llvm.mlir -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: opt-22 -passes=verify -disable-output %t.ll
// RUN: lli-22 %t.ll > %t.silica.txt
// RUN: mlir-translate-22 --mlir-to-llvmir %t.ref.mlir | lli-22 > %t.mlir.txt
// RUN: diff %t.silica.txt %t.mlir.txt
// RUN: FileCheck %s --input-file %t.silica.txt
// CHECK: matmul 2733496.500000
// CHECK-NEXT: conv2d 257054.500000
// CHECK-NEXT: stencil -9663.502930
// CHECK-NEXT: reduction 27310.000000
// CHECK-NEXT: dynamic -25190.000000
// CHECK-NEXT: affine_if -1990.000000
