// The llvm dialect's syntax, custom and generic, as mlir-opt-22 prints it.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: silica opt %s | silica opt | diff - <(mlir-opt-22 %s)

llvm.func @types(%a: !llvm.struct<"foo", (i32, ptr)>, %b: !llvm.struct<packed (i8, i32)>, %c: !llvm.array<4 x vector<4xf32>>, %d: !llvm.ptr<1>, %e: !llvm.ptr<0>) -> !llvm.struct<(i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<(i32)>
  llvm.return %0 : !llvm.struct<(i32)>
}
llvm.func @variadic(!llvm.struct<"foo", (i32, ptr)>, ...) -> !llvm.void
llvm.func @h() -> !llvm.func<void (i32, ...)>
llvm.func @r(!llvm.struct<"rec", (ptr, struct<"rec">)>)
llvm.func internal fastcc @attrs(%x: i64 {llvm.noundef}) -> (i64 {llvm.zeroext}) attributes {passthrough = ["nounwind"]} {
  %0 = llvm.add %x, %x overflow<nsw> : i64
  %1 = llvm.sub %0, %x overflow<nuw> : i64
  %2 = llvm.mul %1, %x overflow<nsw, nuw> : i64
  %3 = llvm.sdiv exact %2, %x : i64
  %4 = llvm.or disjoint %3, %x : i64
  %5 = llvm.lshr exact %4, %x : i64
  %6 = llvm.and %5, %x : i64
  llvm.return %6 : i64
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
llvm.func @call_intrinsic(%x: f32) -> f32 {
  %r = llvm.call_intrinsic "llvm.round"(%x) {fastmathFlags = #llvm.fastmath<reassoc>} : (f32) -> f32
  llvm.call_intrinsic "llvm.donothing"() : () -> ()
  llvm.return %r : f32
}
llvm.func @markers_roundtrip(%p: !llvm.ptr, %c: i1) {
  llvm.intr.lifetime.start %p : !llvm.ptr
  llvm.intr.lifetime.end %p : !llvm.ptr
  llvm.intr.assume %c : i1
  "llvm.intr.trap"() : () -> ()
  "llvm.intr.debugtrap"() : () -> ()
  llvm.return
}
llvm.func @eh_foo(i32) -> !llvm.struct<(i32, f64, i32)>
llvm.func @eh_bar(!llvm.ptr, !llvm.ptr, !llvm.ptr)
llvm.func @eh_personality(...) -> i32
llvm.mlir.global external constant @eh_typeinfo() : !llvm.ptr
llvm.func @eh_inv(%x: i32) -> i32 attributes { personality = @eh_personality } {
  %1 = llvm.mlir.constant(1 : i32) : i32
  %2 = llvm.mlir.constant("\01") : !llvm.array<1 x i8>
  %3 = llvm.mlir.zero : !llvm.ptr
  %4 = llvm.mlir.addressof @eh_typeinfo : !llvm.ptr
  %7 = llvm.invoke @eh_foo(%1) to ^bb2 unwind ^bb1 : (i32) -> !llvm.struct<(i32, f64, i32)>
^bb1:
  %10 = llvm.landingpad cleanup (catch %3 : !llvm.ptr) (catch %4 : !llvm.ptr) (filter %2 : !llvm.array<1 x i8>) : !llvm.struct<(ptr, i32)>
  llvm.resume %10 : !llvm.struct<(ptr, i32)>
^bb2:
  llvm.invoke @eh_bar(%3, %4, %3) to ^bb3(%x : i32) unwind ^bb1 : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
^bb3(%r: i32):
  llvm.return %r : i32
}

llvm.func @assume_bundles(%p: !llvm.ptr, %q: !llvm.ptr, %c: i1) {
  %a = llvm.mlir.constant(16 : i64) : i64
  llvm.intr.assume %c ["align"(%p, %a : !llvm.ptr, i64), "separate_storage"(%p, %q : !llvm.ptr, !llvm.ptr)] : i1
  llvm.intr.assume %c : i1 {tag}
  llvm.intr.assume %c ["cold"()] : i1
  %s = llvm.intr.stacksave : !llvm.ptr
  llvm.intr.stackrestore %s : !llvm.ptr
  llvm.return
}

llvm.mlir.global external @aliased(7 : i32) : i32
llvm.mlir.alias external @plain_alias : i32 {
  %0 = llvm.mlir.addressof @aliased : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
llvm.mlir.alias private thread_local unnamed_addr @local_alias {dso_local} : i32 {
  %0 = llvm.mlir.addressof @aliased : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
