// silica translate --to-llvmir on llvm-dialect ops: the LLVM IR passes
// llvm-as-22 and the verifier, and llvm-diff-22 finds it equal to
// mlir-translate-22's (after instsimplify, which folds the constant
// expressions MLIR's IRBuilder folds).
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=ALIAS < %t.ll
// RUN: opt-22 -passes=verify -disable-output %t.ll
// RUN: opt-22 -passes=instsimplify -S %t.ll -o %t.silica.ll
// RUN: mlir-translate-22 --mlir-to-llvmir %s | opt-22 -passes=instsimplify -S -o %t.mlir.ll
// RUN: llvm-diff-22 %t.silica.ll %t.mlir.ll
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)

llvm.func @atomics(%p: !llvm.ptr, %v: i32, %f: f32, %x: vector<4xf32>) {
  %0 = llvm.atomicrmw add %p, %v monotonic : !llvm.ptr, i32
  %1 = llvm.atomicrmw volatile fadd %p, %f syncscope("agent") seq_cst {alignment = 4 : i64} : !llvm.ptr, f32
  %2 = llvm.cmpxchg %p, %v, %v acq_rel monotonic : !llvm.ptr, i32
  %3 = llvm.cmpxchg weak volatile %p, %v, %v syncscope("x") seq_cst seq_cst {alignment = 4 : i64} : !llvm.ptr, i32
  llvm.fence acquire
  llvm.fence syncscope("agent") seq_cst
  %4 = llvm.shufflevector %x, %x [0, 1, -1, 7] : vector<4xf32>
  %5 = llvm.load %p atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.store %v, %p atomic release {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}
llvm.mlir.global internal constant @str("hi\0A\00") {addr_space = 0 : i32}
llvm.mlir.global private @g(0 : i32) : i32
llvm.func @printf(!llvm.ptr, ...) -> i32
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @f(%a: i64, %p: !llvm.ptr, %x: f32) -> i32 attributes {llvm.emit_c_interface} {
  %0 = llvm.mlir.addressof @str : !llvm.ptr
  %1 = llvm.call @printf(%0, %a) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64) -> i32
  %2 = llvm.alloca %a x f32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
  %3 = llvm.icmp "ult" %a, %a : i64
  %4 = llvm.fcmp "olt" %x, %x {fastmathFlags = #llvm.fastmath<fast>} : f32
  %5 = llvm.select %3, %a, %a : i1, i64
  %6 = llvm.getelementptr %p[%a, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f32)>
  %7 = llvm.load %6 {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.store %7, %2 : f32, !llvm.ptr
  %8 = llvm.sext %3 : i1 to i64
  %9 = llvm.fadd %x, %x {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32
  %10 = "llvm.intr.fmuladd"(%x, %x, %x) : (f32, f32, f32) -> f32
  "llvm.intr.memcpy"(%2, %p, %a) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %11 = llvm.call @malloc(%a) : (i64) -> !llvm.ptr
  %12 = llvm.intr.smax(%a, %a) : (i64, i64) -> i64
  llvm.cond_br %3, ^bb1, ^bb2(%a : i64)
^bb1:
  llvm.unreachable
^bb2(%z: i64):
  %c = llvm.mlir.constant(1 : i32) : i32
  %13 = llvm.trunc %z : i64 to i32
  %14 = llvm.zext nneg %13 : i32 to i64
  llvm.return %c : i32
}
llvm.func @branches(%c: i1, %x: i32) -> i32 {
  llvm.cond_br %c, ^bb1(%x : i32), ^bb1(%x : i32)
^bb1(%y: i32):
  llvm.switch %y : i32, ^bb2(%y : i32) [
    1: ^bb2(%x : i32),
    2: ^bb3
  ]
^bb2(%z: i32):
  llvm.return %z : i32
^bb3:
  %k = llvm.mlir.constant(dense<[1.0, 2.0]> : vector<2xf64>) : vector<2xf64>
  %e = llvm.extractelement %k[%x : i32] : vector<2xf64>
  %i = llvm.fptosi %e : f64 to i32
  llvm.return %i : i32
}
llvm.func @markers(%c: i1) {
  %one = llvm.mlir.constant(1 : i64) : i64
  %p = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  llvm.intr.lifetime.start %p : !llvm.ptr
  llvm.intr.lifetime.end %p : !llvm.ptr
  llvm.intr.assume %c : i1
  llvm.intr.trap
  llvm.intr.debugtrap
  llvm.return
}
llvm.func @foo(i32) -> !llvm.struct<(i32, f64, i32)>
llvm.func @bar(!llvm.ptr, !llvm.ptr, !llvm.ptr)
llvm.func @__gxx_personality_v0(...) -> i32
llvm.mlir.global external constant @_ZTIi() : !llvm.ptr
llvm.func @invoke_landingpad(%x: i32) -> i32 attributes { personality = @__gxx_personality_v0 } {
  %1 = llvm.mlir.constant(1 : i32) : i32
  %2 = llvm.mlir.constant("\01") : !llvm.array<1 x i8>
  %3 = llvm.mlir.zero : !llvm.ptr
  %4 = llvm.mlir.addressof @_ZTIi : !llvm.ptr
  %7 = llvm.invoke @foo(%1) to ^bb2 unwind ^bb1 : (i32) -> !llvm.struct<(i32, f64, i32)>
^bb1:
  %10 = llvm.landingpad cleanup (catch %3 : !llvm.ptr) (catch %4 : !llvm.ptr) : !llvm.struct<(ptr, i32)>
  llvm.resume %10 : !llvm.struct<(ptr, i32)>
^bb2:
  llvm.invoke @bar(%3, %4, %3) to ^bb3(%x : i32) unwind ^bb1 : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
^bb3(%r: i32):
  llvm.return %r : i32
}
llvm.mlir.global internal @arr() : !llvm.array<3 x i32> {
  %0 = llvm.mlir.zero : !llvm.array<3 x i32>
  %1 = llvm.mlir.constant(7 : i32) : i32
  %2 = llvm.insertvalue %1, %0[1] : !llvm.array<3 x i32>
  llvm.return %2 : !llvm.array<3 x i32>
}
llvm.mlir.global internal @q() : !llvm.ptr {
  %0 = llvm.mlir.addressof @arr : !llvm.ptr
  %1 = llvm.getelementptr %0[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<3 x i32>
  llvm.return %1 : !llvm.ptr
}
llvm.mlir.global internal @i() : i64 {
  %0 = llvm.mlir.addressof @arr : !llvm.ptr
  %1 = llvm.ptrtoint %0 : !llvm.ptr to i64
  llvm.return %1 : i64
}
llvm.mlir.global internal @v() : vector<2xf32> {
  %0 = llvm.mlir.poison : vector<2xf32>
  %1 = llvm.mlir.constant(1.5 : f32) : f32
  %c = llvm.mlir.constant(1 : i32) : i32
  %2 = llvm.insertelement %1, %0[%c : i32] : vector<2xf32>
  llvm.return %2 : vector<2xf32>
}
llvm.mlir.global internal constant @s() {addr_space = 0 : i32} : !llvm.struct<packed (i8, ptr)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i8, ptr)>
  %1 = llvm.mlir.constant(1 : i8) : i8
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i8, ptr)>
  %3 = llvm.mlir.addressof @v : !llvm.ptr
  %4 = llvm.insertvalue %3, %2[1] : !llvm.struct<packed (i8, ptr)>
  llvm.return %4 : !llvm.struct<packed (i8, ptr)>
}
// CHECK-DAG: @arr = internal global [3 x i32] [i32 0, i32 7, i32 0]
// CHECK-DAG: @q = internal global ptr getelementptr ([3 x i32], ptr @arr, i32 0, i32 2)
// CHECK-DAG: @i = internal global i64 ptrtoint (ptr @arr to i64)
// CHECK-DAG: @v = internal global <2 x float> <float poison, float 0x3FF8000000000000>
// CHECK-DAG: @s = internal constant <{ i8, ptr }> <{ i8 1, ptr @v }>

// CHECK-LABEL: define void @assumes(
// CHECK: call void @llvm.assume(i1 true) [ "align"(ptr %{{.*}}, i64 16), "separate_storage"(ptr %{{.*}}, ptr %{{.*}}) ]
// CHECK: call void @llvm.assume(i1 %{{.*}})
// CHECK: call ptr @llvm.stacksave.p0()
// CHECK: call void @llvm.stackrestore.p0(ptr
llvm.func @assumes(%p: !llvm.ptr, %q: !llvm.ptr, %c: i1) {
  %a = llvm.mlir.constant(16 : i64) : i64
  %t = llvm.mlir.constant(true) : i1
  llvm.intr.assume %t ["align"(%p, %a : !llvm.ptr, i64), "separate_storage"(%p, %q : !llvm.ptr, !llvm.ptr)] : i1
  llvm.intr.assume %c : i1
  %s = llvm.intr.stacksave : !llvm.ptr
  llvm.intr.stackrestore %s : !llvm.ptr
  llvm.return
}

// CHECK-LABEL: define float @constrained(
// CHECK: call float @llvm.experimental.constrained.fptrunc.f32.f64(double %{{.*}}, metadata !"round.downward", metadata !"fpexcept.ignore")
llvm.func @constrained(%x: f64) -> f32 {
  %0 = llvm.intr.experimental.constrained.fptrunc %x downward ignore : f64 to f32
  llvm.return %0 : f32
}

// ALIAS: @target_of_alias = global i32 5
// ALIAS: @alias_of_target = alias i32, ptr @target_of_alias
// ALIAS: @hidden_alias = weak hidden unnamed_addr alias i32, ptr @target_of_alias
llvm.mlir.global external @target_of_alias(5 : i32) : i32
llvm.mlir.alias external @alias_of_target : i32 {
  %0 = llvm.mlir.addressof @target_of_alias : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
llvm.mlir.alias weak hidden unnamed_addr @hidden_alias : i32 {
  %0 = llvm.mlir.addressof @target_of_alias : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
llvm.func @read_alias() -> i32 {
  %0 = llvm.mlir.addressof @alias_of_target : !llvm.ptr
  %1 = llvm.load %0 : !llvm.ptr -> i32
  llvm.return %1 : i32
}
