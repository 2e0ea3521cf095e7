// convert-math-to-llvm against mlir-opt-22: intrinsics (fast-math flags
// kept), abs/ctlz/cttz with their poison flags off, powi, rsqrt/expm1/
// log1p from a constant one (log1p only with approximate-log1p, the
// default), scalars and vectors; the result translates to LLVM IR that
// llvm-as-22 accepts and runs in lli-22.
// RUN: diff <(silica opt --convert-math-to-llvm %s) <(mlir-opt-22 --convert-math-to-llvm %s)
// RUN: diff <(silica opt --convert-math-to-llvm --mlir-print-op-generic %s) <(mlir-opt-22 --convert-math-to-llvm --mlir-print-op-generic %s)
// RUN: diff <(silica opt '--convert-math-to-llvm=approximate-log1p=false' %s) <(mlir-opt-22 '--convert-math-to-llvm=approximate-log1p=false' %s)
// RUN: silica opt --convert-math-to-llvm %s | FileCheck %s
// RUN: silica opt '--convert-math-to-llvm=approximate-log1p=false' %s | FileCheck %s --check-prefix=EXACT
// RUN: silica opt --convert-math-to-llvm --convert-arith-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts %s -o %t.mlir
// RUN: silica translate --to-llvmir %t.mlir -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: lli-22 %t.ll; test $? -eq 42

// CHECK-LABEL: func.func @elementary
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-NEXT: %[[SUM:.*]] = llvm.fadd %[[ONE]], %arg0 {fastmathFlags = #llvm.fastmath<fast>} : f32
// CHECK-NEXT: llvm.intr.log(%[[SUM]]) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
// CHECK: llvm.intr.exp(%arg0) : (f32) -> f32
// CHECK: llvm.fsub
// CHECK: llvm.intr.sqrt(%arg2) : (vector<4xf32>) -> vector<4xf32>
// CHECK: llvm.fdiv
// CHECK: "llvm.intr.abs"(%arg1) <{is_int_min_poison = false}> : (i32) -> i32
// CHECK: "llvm.intr.ctlz"(%arg1) <{is_zero_poison = false}> : (i32) -> i32
// CHECK: "llvm.intr.cttz"(%arg1) <{is_zero_poison = false}> : (i32) -> i32
// CHECK: llvm.intr.powi(%arg0, %arg1) : (f32, i32) -> f32
// CHECK: llvm.intr.atan2(%arg0, %arg0) : (f32, f32) -> f32
// CHECK: llvm.intr.acos
// CHECK: llvm.intr.sinh
// EXACT-LABEL: func.func @elementary
// EXACT: math.log1p
func.func @elementary(%x: f32, %i: i32, %v: vector<4xf32>)
    -> (f32, f32, vector<4xf32>, i32, i32, i32, f32, f32, f32, f32) {
  %0 = math.log1p %x fastmath<fast> : f32
  %1 = math.expm1 %x : f32
  %2 = math.rsqrt %v : vector<4xf32>
  %3 = math.absi %i : i32
  %4 = math.ctlz %i : i32
  %5 = math.cttz %i : i32
  %6 = math.fpowi %x, %i : f32, i32
  %7 = math.atan2 %x, %x : f32
  %8 = math.acos %x : f32
  %9 = math.sinh %x : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9
      : f32, f32, vector<4xf32>, i32, i32, i32, f32, f32, f32, f32
}

// main returns abs(-2) + ctlz(1 << 20) + cttz(8) + powi(2.0, 3) + rsqrt(0.25)
// = 2 + 11 + 3 + 8 + 2 = 26, plus 16 when expm1(0) == 0 and log1p(0) == 0.
func.func @main() -> i32 {
  %m2 = arith.constant -2 : i32
  %p20 = arith.constant 1048576 : i32
  %c8 = arith.constant 8 : i32
  %c3 = arith.constant 3 : i32
  %two = arith.constant 2.0 : f32
  %quarter = arith.constant 0.25 : f32
  %zero = arith.constant 0.0 : f32
  %a = math.absi %m2 : i32
  %b = math.ctlz %p20 : i32
  %c = math.cttz %c8 : i32
  %d = math.fpowi %two, %c3 : f32, i32
  %e = math.rsqrt %quarter : f32
  %di = arith.fptosi %d : f32 to i32
  %ei = arith.fptosi %e : f32 to i32
  %s0 = arith.addi %a, %b : i32
  %s1 = arith.addi %s0, %c : i32
  %s2 = arith.addi %s1, %di : i32
  %s3 = arith.addi %s2, %ei : i32
  %f = math.expm1 %zero : f32
  %g = math.log1p %zero : f32
  %fg = arith.addf %f, %g : f32
  %ok = arith.cmpf oeq, %fg, %zero : f32
  %c16 = arith.constant 16 : i32
  %c0 = arith.constant 0 : i32
  %bonus = arith.select %ok, %c16, %c0 : i32
  %r = arith.addi %s3, %bonus : i32
  return %r : i32
}
