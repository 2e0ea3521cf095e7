// Memory of C kernels, co-simulated: local arrays (memref.alloca,
// on-chip RAMs; an initializer's missing elements are zeros), constant
// global and local arrays (memref.global constants: ROMs), calls of a
// function the file defines with whole arrays and scalars (func.call,
// a submodule), pointer forms that stay inside an array (*(a + i),
// *(b[i] + 1), &b[i][0]), and a subscript that is not affine (i % 4,
// memref.load).
// RUN: rm -rf %t.d
// RUN: silica hls %s --top arrays -o %t.d --sim | FileCheck %s --check-prefix=SIM
// RUN: silica import-c %s --top arrays | FileCheck %s

// SIM: co-simulation (seed 1): {{[0-9]+}} values match
// CHECK-DAG: memref.global "private" constant @{{.*}}weights{{.*}} : memref<4xi32> = dense<[3, -1, 4, 1]>
// CHECK-DAG: memref.global "private" constant @{{.*}}coeffs{{.*}} : memref<2x3xi16> = dense<{{\[}}[5, 25, 125], [-1, -2, 0]]>
// CHECK-LABEL: func.func @dot
// CHECK-LABEL: func.func @arrays
// CHECK-DAG: memref.alloca() {hls.name = "tmp"} : memref<8xi32>
// CHECK-DAG: memref.alloca() {hls.name = "acc"} : memref<2x8xi32>
// CHECK: affine.store %{{.*}}, %{{.*}}[2] : memref<8xi32>
// CHECK: affine.store %c0_i32, %{{.*}}[3] : memref<8xi32>
// CHECK: memref.load
// CHECK: affine.load %{{.*}}[%{{.*}}, 3] : memref<8x8xi32>
// CHECK: call @dot

#define N 8

static const int weights[4] = {3, -1, 4, 1};
static const short coeffs[2][3] = {{5, 25, 125}, {-1, -2}};

static int dot(int x[N], int y[N], int scale) {
  int s = 0;
  for (int i = 0; i < N; i++)
    s += x[i] * y[i];
  return s * scale;
}

int arrays(int a[N], int b[N][N], int d[3]) {
  int tmp[N] = {1, 2, 3};
  const int local[3] = {7, 8, 9};
  int acc[2][N];
  for (int i = 0; i < N; i++) {
    tmp[i] += a[i] * weights[i % 4];
    acc[0][i] = *(a + i) + local[i % 3];
    acc[1][i] = *(b[i] + 1) + (&b[i][0])[2] + *(*(b + i) + 3);
  }
  for (int i = 0; i < N; i++)
    b[0][i] = acc[0][i] - acc[1][N - 1 - i];
  for (int j = 0; j < 3; j++)
    d[j] = d[j] * coeffs[0][j] + coeffs[1][j];
  return dot(tmp, a, 2) + dot(a, a, 1);
}
