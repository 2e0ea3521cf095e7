// `llvm.intr.sincos`: printed as mlir-opt-22 prints it, its result a
// struct of two values of the operand's type, translated to LLVM's
// intrinsic (overloaded on the operand); lli-22 runs it: sin 0 + cos 0 = 1.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: silica translate --to-llvmir %s | FileCheck %s
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: lli-22 %t.ll; test $? -eq 1
// RUN: printf 'llvm.func @f(%%x: f32) {\n  %%r = llvm.intr.sincos(%%x) : (f32) -> !llvm.struct<(f32, f64)>\n  llvm.return\n}\n' > %t.bad
// RUN: not silica opt %t.bad 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: call { float, float } @llvm.sincos.f32(float
// CHECK: call fast { <4 x double>, <4 x double> } @llvm.sincos.v4f64(<4 x double>
// CHECK: declare { float, float } @llvm.sincos.f32(float)
// BAD: error: 'llvm.intr.sincos' op expected result type to be an homogeneous struct with two elements matching the operand type
llvm.func @main() -> i32 {
  %z = llvm.mlir.constant(0.0 : f32) : f32
  %r = llvm.intr.sincos(%z) : (f32) -> !llvm.struct<(f32, f32)>
  %s = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32)>
  %c = llvm.extractvalue %r[1] : !llvm.struct<(f32, f32)>
  %t = llvm.fadd %s, %c : f32
  %i = llvm.fptosi %t : f32 to i32
  llvm.return %i : i32
}
llvm.func @vec(%v: vector<4xf64>) -> !llvm.struct<(vector<4xf64>, vector<4xf64>)> {
  %r = llvm.intr.sincos(%v) {fastmathFlags = #llvm.fastmath<fast>} : (vector<4xf64>) -> !llvm.struct<(vector<4xf64>, vector<4xf64>)>
  llvm.return %r : !llvm.struct<(vector<4xf64>, vector<4xf64>)>
}
