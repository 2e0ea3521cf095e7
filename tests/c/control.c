// Control flow of C kernels, each co-simulated bit for bit with
// silica hls --sim: while with break and continue (scf.while, the
// statements after a break or continue under a test of its flag), a
// return from inside a loop, do-while, switch with fall-through and
// default, short-circuit && and || whose right operand loads or divides
// (scf.if, or affine.if where the left one is affine), ?: , and loops
// that count down, by steps, with two bounds (min), or to a bound read
// from memory (an affine symbol).
// RUN: rm -rf %t.d
// RUN: silica hls %s --top search -o %t.d/search --sim | FileCheck %s --check-prefix=SIM
// RUN: silica hls %s --top firstabove -o %t.d/firstabove --sim | FileCheck %s --check-prefix=SIM
// RUN: silica hls %s --top classify -o %t.d/classify --sim | FileCheck %s --check-prefix=SIM
// RUN: silica hls %s --top shortcircuit -o %t.d/shortcircuit --sim | FileCheck %s --check-prefix=SIM
// RUN: silica hls %s --top loops -o %t.d/loops --sim | FileCheck %s --check-prefix=SIM
// RUN: silica import-c %s | FileCheck %s

// SIM: co-simulation (seed 1): {{[0-9]+}} values match

#define N 16

// CHECK-LABEL: func.func @search
// CHECK: scf.while
// CHECK: scf.condition
// CHECK: } do {
// CHECK: memref.load
int search(int a[N], int key) {
  int i = 0, found = -1;
  while (i < N) {
    if (a[i] < 0) {
      i++;
      continue;
    }
    if (a[i] == key) {
      found = i;
      break;
    }
    i += 1;
  }
  return found;
}

// CHECK-LABEL: func.func @firstabove
// CHECK: scf.while
// CHECK: scf.while
int firstabove(int a[N], int t) {
  int i;
  for (i = 0; i < N; i++)
    if (a[i] > t)
      return i;
  int k = 0;
  do {
    k += a[k] & 1;
  } while (k < 3 && a[k] != 0);
  return i + k;
}

// CHECK-LABEL: func.func @classify
// CHECK: affine.for
void classify(int a[N], int out[N]) {
  for (int i = 0; i < N; i++) {
    int v = 0;
    switch (a[i] & 7) {
    case 0:
      v = 10;
      break;
    case 1:
    case 2:
      v = 20;
    case 3:
      v += 1;
      break;
    default:
      v = -1;
    }
    out[i] = v;
  }
}

// CHECK-LABEL: func.func @shortcircuit
// CHECK: affine.if
// CHECK: affine.load %{{.*}}[%{{.*}} - 1]
// CHECK: scf.if
// CHECK: arith.divsi
void shortcircuit(int a[N], int b[N], int out[N]) {
  int count = 0;
  for (int i = 0; i < N; i++) {
    if (i > 0 && a[i - 1] > a[i])
      count++;
    if (b[i] == 0 || a[i] / b[i] > 2)
      count += 2;
    out[i] = i < N - 1 ? a[i + 1] : count;
    out[i] += (a[i] > 0 ? b[i] : -b[i]) + !a[i];
  }
  out[0] = count;
}

// CHECK-LABEL: func.func @loops
// CHECK: affine.for %[[I:.*]] = 0 to 6 {
// CHECK-NEXT: affine.load %{{.*}}[%[[I]] * -3 + 15]
// CHECK: affine.for %{{.*}} = #map{{[0-9]*}}(%{{.*}}) to min #map
// CHECK: %[[M:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: affine.for %{{.*}} = 0 to %[[M]] {
void loops(int a[N], int b[N][N], int n[1]) {
  for (int i = N - 1; i >= 0; i -= 3)
    a[i] = a[i] * 2;
  for (int i = 0; i < N; i += 2)
    for (int j = i; j <= N - 1 && j < i + 5; j++)
      b[i][j] += i - j;
  int m = n[0] & 15;
  for (int i = 0; i < m; i++)
    a[i] += 7;
  for (unsigned u = 2; u < N; u++)
    b[u][u / 2] ^= (int)u;
}
