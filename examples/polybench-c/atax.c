/* atax: y = A^T (A x). */
#include "pbc.h"

#ifndef M
#define M 38
#endif
#ifndef N
#define N 42
#endif

static void kernel_atax(int m, int n, DATA_TYPE A[M][N], DATA_TYPE x[N], DATA_TYPE y[N],
                        DATA_TYPE tmp[M]) {
  int i, j;
  for (i = 0; i < N; i++)
    y[i] = 0;
  for (i = 0; i < M; i++) {
    tmp[i] = SCALAR_VAL(0.0);
    for (j = 0; j < N; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
    for (j = 0; j < N; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }
}

int main(void) {
  static DATA_TYPE A[M][N], x[N], y[N], tmp[M];
  for (int i = 0; i < N; i++)
    x[i] = FRAC(i % 7 - 3, N);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = FRAC((i + j) % 9 - 4, 5 * M);
  kernel_atax(M, N, A, x, y, tmp);
  pbc_dump("y", y, N);
  return 0;
}
