/* jacobi-2d: the 2-D Jacobi stencil. */
#include "pbc.h"

#ifndef TSTEPS
#define TSTEPS 20
#endif
#ifndef N
#define N 30
#endif

static void kernel_jacobi_2d(int tsteps, int n, DATA_TYPE A[N][N], DATA_TYPE B[N][N]) {
  int t, i, j;
  for (t = 0; t < TSTEPS; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        B[i][j] = SCALE(1, 5, 0.2, A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = SCALE(1, 5, 0.2, B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
  }
}

int main(void) {
  static DATA_TYPE A[N][N], B[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = FRAC(i * (j + 2) + 2, N) * (DATA_TYPE)10;
      B[i][j] = FRAC(i * (j + 3) + 3, N) * (DATA_TYPE)10;
    }
  kernel_jacobi_2d(TSTEPS, N, A, B);
  pbc_dump("A", &A[0][0], N * N);
  return 0;
}
