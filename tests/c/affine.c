// Static control raised to affine: loops whose bounds are affine forms
// of enclosing induction variables and of values fixed for the whole
// function (parameters: symbols) are affine.for, counting down as a
// loop over the reflected index, `<=` as the bound plus one, several
// bounds as min; accesses with affine subscripts affine.load and
// affine.store; scalar accumulators iter_args. What is not affine stays
// scf (a bound that is a product of induction variables) and memref (a
// subscript i * i). A C label names its loop (hls.label) for
// directives.
// RUN: silica import-c %s | FileCheck %s
// And silica opt and silica translate read C too.
// RUN: silica opt %s --lower-affine --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts | silica translate --to-llvmir | FileCheck %s --check-prefix=LLVM

#define N 40

// CHECK-LABEL: func.func @trisolve(
// CHECK-SAME: %[[N:[^:]*]]: i32 {hls.name = "n"}
// CHECK: %[[S:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK: affine.for %[[II:.*]] = 0 to 40 {
// CHECK: %[[W:.*]] = affine.load %{{.*}}[-%[[II]] + 39]
// CHECK: affine.for %[[J:.*]] = #map{{[0-9]*}}(%[[II]]) to 40 iter_args(%[[ACC:.*]] = %[[W]]) -> (f64) {
// CHECK: affine.load %{{.*}}[-%[[II]] + 39, %[[J]]]
// CHECK: affine.yield
// CHECK: } {hls.label = "inner"}
// CHECK: affine.for %{{.*}} = 0 to min #map{{[0-9]*}}()[%[[S]]] {
// LLVM: define void @trisolve(
void trisolve(int n, double A[N][N], double x[N], double y[N]) {
  for (int i = N - 1; i >= 0; i--) {
    double w = y[i];
  inner:
    for (int j = i + 1; j < N; j++)
      w -= A[i][j] * x[j];
    x[i] = w / A[i][i];
  }
  for (int i = 0; i < n && i <= N - 2; i++)
    y[i] = 0;
}

// CHECK-LABEL: func.func @squares(
// CHECK: affine.for %[[I:.*]] = 0 to 6 {
// CHECK: scf.for
// CHECK: memref.load
void squares(int a[N], int b[N]) {
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < i * i; j++)
      a[j] += b[i * i];
}

// A loop counting down in unsigned arithmetic would wrap below zero
// (`u >= 0` always holds): C's loop as written, scf.while.
// CHECK-LABEL: func.func @unsigned_down(
// CHECK: scf.while
void unsigned_down(int a[N]) {
  for (unsigned u = 5; u >= 1; u--)
    a[u] = 0;
}

// A port keeps a parameter's name where Verilog can (a letter, then
// letters, digits and single underscores); `_fict_` (PolyBench's
// fdtd-2d) names its port without the underscores.
// CHECK-LABEL: func.func @ports(
// CHECK-SAME: {hls.name = "fict"}
// CHECK-SAME: {hls.name = "a_b"}
void ports(int _fict_[4], int a__b[4]) { _fict_[0] = a__b[0]; }
