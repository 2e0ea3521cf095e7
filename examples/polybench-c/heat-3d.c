/* heat-3d: the heat equation over a 3-D grid. */
#include "pbc.h"

#ifndef TSTEPS
#define TSTEPS 20
#endif
#ifndef N
#define N 10
#endif

static void kernel_heat_3d(int tsteps, int n, DATA_TYPE A[N][N][N], DATA_TYPE B[N][N][N]) {
  int t, i, j, k;
  for (t = 1; t <= TSTEPS; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
          B[i][j][k] = SCALE(1, 8, 0.125, A[i + 1][j][k] - 2 * A[i][j][k] + A[i - 1][j][k]) +
                       SCALE(1, 8, 0.125, A[i][j + 1][k] - 2 * A[i][j][k] + A[i][j - 1][k]) +
                       SCALE(1, 8, 0.125, A[i][j][k + 1] - 2 * A[i][j][k] + A[i][j][k - 1]) +
                       A[i][j][k];
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
          A[i][j][k] = SCALE(1, 8, 0.125, B[i + 1][j][k] - 2 * B[i][j][k] + B[i - 1][j][k]) +
                       SCALE(1, 8, 0.125, B[i][j + 1][k] - 2 * B[i][j][k] + B[i][j - 1][k]) +
                       SCALE(1, 8, 0.125, B[i][j][k + 1] - 2 * B[i][j][k] + B[i][j][k - 1]) +
                       B[i][j][k];
  }
}

int main(void) {
  static DATA_TYPE A[N][N][N], B[N][N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        A[i][j][k] = B[i][j][k] = FRAC(i + j + (N - k), 1) * (DATA_TYPE)10 / (DATA_TYPE)N;
  kernel_heat_3d(TSTEPS, N, A, B);
  pbc_dump("A", &A[0][0][0], N * N * N);
  return 0;
}
