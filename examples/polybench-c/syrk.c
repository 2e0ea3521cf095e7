/* syrk: C = alpha A A^T + beta C, the lower triangle. */
#include "pbc.h"

#ifndef M
#define M 20
#endif
#ifndef N
#define N 30
#endif

static void kernel_syrk(int n, int m, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE C[N][N],
                        DATA_TYPE A[N][M]) {
  int i, j, k;
  for (i = 0; i < N; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < M; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
}

int main(void) {
  static DATA_TYPE C[N][N], A[N][M];
  DATA_TYPE alpha = SCALAR_VAL(1.5), beta = SCALAR_VAL(1.2);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      A[i][j] = FRAC((i * j + 1) % 9 - 4, N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      C[i][j] = FRAC((i * j + 2) % 7 - 3, M);
  kernel_syrk(N, M, alpha, beta, C, A);
  pbc_dump("C", &C[0][0], N * N);
  return 0;
}
