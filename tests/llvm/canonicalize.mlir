// The llvm dialect's folds under canonicalize, as mlir-opt-22: undef,
// poison and zero are constants (hoisted and merged), extractvalue reads
// through insertvalue chains, nested extracts and constants, icmp of a
// value with itself (eq, ne) or of a stack address with null, cast
// chains, GEPs with constant indices, one-element shuffles; a volatile or
// ordered load stays, a plain unused one goes.
// RUN: diff <(silica opt --canonicalize %s) <(mlir-opt-22 --canonicalize %s)
// RUN: silica opt --canonicalize %s | FileCheck %s

// CHECK-LABEL: llvm.func @extracts
// CHECK-DAG: llvm.mlir.poison : i32
// CHECK-DAG: llvm.mlir.zero : f32
// CHECK-NOT: llvm.insertvalue
llvm.func @extracts(%a: i32, %b: i32, %s: !llvm.struct<(i32, i32, struct<(i32, i32)>)>) -> i32 {
  %0 = llvm.insertvalue %a, %s[0] : !llvm.struct<(i32, i32, struct<(i32, i32)>)>
  %1 = llvm.insertvalue %b, %0[1] : !llvm.struct<(i32, i32, struct<(i32, i32)>)>
  %2 = llvm.extractvalue %1[0] : !llvm.struct<(i32, i32, struct<(i32, i32)>)>
  %3 = llvm.extractvalue %1[2] : !llvm.struct<(i32, i32, struct<(i32, i32)>)>
  %4 = llvm.extractvalue %3[1] : !llvm.struct<(i32, i32)>
  %5 = llvm.add %2, %4 : i32
  %p = llvm.mlir.poison : !llvm.struct<(i32, i32)>
  %q = llvm.insertvalue %p, %1[2] : !llvm.struct<(i32, i32, struct<(i32, i32)>)>
  %r = llvm.extractvalue %q[2, 1] : !llvm.struct<(i32, i32, struct<(i32, i32)>)>
  %6 = llvm.add %5, %r : i32
  %z = llvm.mlir.zero : !llvm.struct<(i32, f32)>
  %f = llvm.extractvalue %z[1] : !llvm.struct<(i32, f32)>
  llvm.call @use_f32(%f) : (f32) -> ()
  %c = llvm.mlir.constant([1 : i16, 7 : i32]) : !llvm.struct<(i16, i32)>
  %seven = llvm.extractvalue %c[1] : !llvm.struct<(i16, i32)>
  %7 = llvm.add %6, %seven : i32
  llvm.return %7 : i32
}
llvm.func @use_f32(f32)

// CHECK-LABEL: llvm.func @compares
// CHECK: llvm.mlir.constant(true) : i1
// CHECK: llvm.mlir.constant(dense<false> : vector<2xi1>) : vector<2xi1>
llvm.func @compares(%x: i32, %v: vector<2xi32>) -> !llvm.struct<(i1, i1, vector<2xi1>)> {
  %null = llvm.mlir.zero : !llvm.ptr
  %one = llvm.mlir.constant(1 : i64) : i64
  %slot = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %0 = llvm.icmp "ne" %null, %slot : !llvm.ptr
  %1 = llvm.icmp "eq" %x, %x : i32
  %2 = llvm.icmp "ne" %v, %v : vector<2xi32>
  %u = llvm.mlir.undef : !llvm.struct<(i1, i1, vector<2xi1>)>
  %r0 = llvm.insertvalue %0, %u[0] : !llvm.struct<(i1, i1, vector<2xi1>)>
  %r1 = llvm.insertvalue %1, %r0[1] : !llvm.struct<(i1, i1, vector<2xi1>)>
  %r2 = llvm.insertvalue %2, %r1[2] : !llvm.struct<(i1, i1, vector<2xi1>)>
  llvm.return %r2 : !llvm.struct<(i1, i1, vector<2xi1>)>
}

// CHECK-LABEL: llvm.func @casts_and_geps
// CHECK: llvm.bitcast %{{.*}} : i32 to vector<2xi16>
// CHECK: llvm.getelementptr %{{.*}}[2] : (!llvm.ptr) -> !llvm.ptr, i8
llvm.func @casts_and_geps(%x: i32, %p: !llvm.ptr, %w: vector<1xf32>, %y: vector<1xf32>) -> !llvm.struct<(i32, vector<2xi16>, ptr, ptr, vector<1xf32>)> {
  %a = llvm.bitcast %x : i32 to f32
  %b = llvm.bitcast %a : f32 to i32
  %c = llvm.bitcast %a : f32 to vector<2xi16>
  %s = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<1>
  %t = llvm.addrspacecast %s : !llvm.ptr<1> to !llvm.ptr
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c2 = llvm.mlir.constant(2 : i32) : i32
  %g0 = llvm.getelementptr %t[%c0] : (!llvm.ptr, i32) -> !llvm.ptr, i8
  %g2 = llvm.getelementptr %p[%c2] : (!llvm.ptr, i32) -> !llvm.ptr, i8
  %sh = llvm.shufflevector %w, %y [0] : vector<1xf32>
  %u = llvm.mlir.undef : !llvm.struct<(i32, vector<2xi16>, ptr, ptr, vector<1xf32>)>
  %r0 = llvm.insertvalue %b, %u[0] : !llvm.struct<(i32, vector<2xi16>, ptr, ptr, vector<1xf32>)>
  %r1 = llvm.insertvalue %c, %r0[1] : !llvm.struct<(i32, vector<2xi16>, ptr, ptr, vector<1xf32>)>
  %r2 = llvm.insertvalue %g0, %r1[2] : !llvm.struct<(i32, vector<2xi16>, ptr, ptr, vector<1xf32>)>
  %r3 = llvm.insertvalue %g2, %r2[3] : !llvm.struct<(i32, vector<2xi16>, ptr, ptr, vector<1xf32>)>
  %r4 = llvm.insertvalue %sh, %r3[4] : !llvm.struct<(i32, vector<2xi16>, ptr, ptr, vector<1xf32>)>
  llvm.return %r4 : !llvm.struct<(i32, vector<2xi16>, ptr, ptr, vector<1xf32>)>
}

// CHECK-LABEL: llvm.func @loads
// CHECK-NEXT: llvm.load volatile
// CHECK-NEXT: llvm.load %{{.*}} atomic monotonic
// CHECK-NEXT: llvm.return
llvm.func @loads(%p: !llvm.ptr) {
  %0 = llvm.load volatile %p : !llvm.ptr -> i8
  %1 = llvm.load %p atomic monotonic {alignment = 1 : i64} : !llvm.ptr -> i8
  %2 = llvm.load %p atomic unordered {alignment = 1 : i64} : !llvm.ptr -> i8
  %3 = llvm.load %p : !llvm.ptr -> i8
  llvm.return
}
