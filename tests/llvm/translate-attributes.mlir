// Calling conventions, tail calls, argument, result and function
// attributes, and symbol properties in LLVM IR: silica's text round-trips
// as mlir-opt-22's, and after llvm-as-22/llvm-dis-22 the headers, calls
// and attribute groups of silica's LLVM IR are mlir-translate-22's.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: silica translate --to-llvmir %s -o %t.ours
// RUN: mlir-translate-22 --mlir-to-llvmir %s -o %t.ref
// RUN: llvm-as-22 %t.ours -o - | llvm-dis-22 | grep -E '^(define|declare|attributes|@)|call|invoke' | sed -E 's/%[-a-z0-9.]+/%/g' > %t.ours.lines
// RUN: llvm-as-22 %t.ref -o - | llvm-dis-22 | grep -E '^(define|declare|attributes|@)|call|invoke' | sed -E 's/%[-a-z0-9.]+/%/g' > %t.ref.lines
// RUN: diff %t.ours.lines %t.ref.lines
// RUN: FileCheck %s < %t.ours

// CHECK: @hidden_tls = hidden thread_local unnamed_addr global i32 0, section ".tdata.x", align 4
llvm.mlir.global external hidden thread_local unnamed_addr @hidden_tls(0 : i32) {alignment = 4 : i64, section = ".tdata.x"} : i32
// CHECK: @ext_init = external dso_local externally_initialized global i64
llvm.mlir.global external @ext_init() {dso_local, externally_initialized} : i64
// CHECK: @protected_const = protected local_unnamed_addr constant i8 7
llvm.mlir.global external protected local_unnamed_addr constant @protected_const(7 : i8) : i8

// CHECK: declare fastcc zeroext i8 @fast(ptr noalias captures(none) readonly, i32 signext)
llvm.func fastcc @fast(!llvm.ptr {llvm.noalias, llvm.nocapture, llvm.readonly}, i32 {llvm.signext}) -> (i8 {llvm.zeroext})
// CHECK: declare void @sret(ptr align 8 sret({ i32, i64 }), ptr byval(i64) dereferenceable(8), i32 range(i32 0, 100))
llvm.func @sret(!llvm.ptr {llvm.sret = !llvm.struct<(i32, i64)>, llvm.align = 8 : i64}, !llvm.ptr {llvm.byval = i64, llvm.dereferenceable = 8 : i64}, i32 {llvm.range = #llvm.constant_range<i32, 0, 100>})
// CHECK: declare ghccc void @ghc()
llvm.func cc_10 @ghc()
llvm.func @__gxx_personality_v0(...) -> i32

// CHECK: define internal tailcc noundef i32 @callee(i32 noundef %{{.*}}) unnamed_addr noinline nounwind memory(argmem: read) "frame-pointer"="all" "target-cpu"="x86-64" section ".text.callee" align 16 {
llvm.func internal unnamed_addr tailcc @callee(%x: i32 {llvm.noundef}) -> (i32 {llvm.noundef}) attributes {no_inline, no_unwind, memory_effects = #llvm.memory_effects<other = none, argMem = read, inaccessibleMem = none, errnoMem = none, targetMem0 = none, targetMem1 = none>, frame_pointer = #llvm.framePointerKind<all>, target_cpu = "x86-64", section = ".text.callee", alignment = 16 : i64} {
  llvm.return %x : i32
}

llvm.func @caller(%p: !llvm.ptr, %n: i32) -> i32 attributes {passthrough = ["nounwind", ["alignstack", "16"], ["key", "value"]], personality = @__gxx_personality_v0} {
  // CHECK: tail call tailcc noundef i32 @callee(i32 noundef %
  %0 = llvm.call tailcc tail @callee(%n) : (i32 {llvm.noundef}) -> (i32 {llvm.noundef})
  // CHECK: call fastcc zeroext i8 @fast(ptr noalias %{{.*}}, i32 signext %{{.*}}) nounwind willreturn
  %1 = llvm.call fastcc @fast(%p, %n) {no_unwind, will_return} : (!llvm.ptr {llvm.noalias}, i32 {llvm.signext}) -> (i8 {llvm.zeroext})
  // CHECK: call i32 @llvm.umax.i32(i32 noundef %{{.*}}, i32 %{{.*}})
  %2 = llvm.call_intrinsic "llvm.umax.i32"(%n, %0) : (i32 {llvm.noundef}, i32) -> i32
  // CHECK: invoke ghccc void @ghc()
  llvm.invoke cc_10 @ghc() to ^bb1 unwind ^bb2 : () -> ()
^bb1:
  llvm.return %2 : i32
^bb2:
  %3 = llvm.landingpad cleanup : !llvm.struct<(ptr, i32)>
  llvm.return %n : i32
}

// CHECK: define void @vscale() vscale_range(1,4) {
llvm.func @vscale() vscale_range(1, 4) {
  llvm.return
}

// Vectors of pointers are builtin vectors of `!llvm.ptr`.
// CHECK: define <2 x ptr addrspace(1)> @ptr_vector(<2 x ptr addrspace(1)> %{{.*}}) {
llvm.func @ptr_vector(%v: vector<2x!llvm.ptr<1>>) -> vector<2x!llvm.ptr<1>> {
  llvm.return %v : vector<2x!llvm.ptr<1>>
}
