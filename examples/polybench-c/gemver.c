/* gemver: A += u1 v1^T + u2 v2^T; x += beta A^T y + z; w += alpha A x. */
#include "pbc.h"

#ifndef N
#define N 40
#endif

static void kernel_gemver(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE A[N][N],
                          DATA_TYPE u1[N], DATA_TYPE v1[N], DATA_TYPE u2[N], DATA_TYPE v2[N],
                          DATA_TYPE w[N], DATA_TYPE x[N], DATA_TYPE y[N], DATA_TYPE z[N]) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];
  for (i = 0; i < N; i++)
    x[i] = x[i] + z[i];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      w[i] = w[i] + alpha * A[i][j] * x[j];
}

int main(void) {
  static DATA_TYPE A[N][N], u1[N], v1[N], u2[N], v2[N], w[N], x[N], y[N], z[N];
  DATA_TYPE alpha = SCALAR_VAL(1.5), beta = SCALAR_VAL(1.2);
  for (int i = 0; i < N; i++) {
    u1[i] = FRAC(i % 5 - 2, N);
    u2[i] = FRAC((i + 1) % 7 - 3, 2 * N);
    v1[i] = FRAC((i + 2) % 9 - 4, 4 * N);
    v2[i] = FRAC((i + 3) % 6 - 3, 6 * N);
    y[i] = FRAC((i + 4) % 8 - 4, 8 * N);
    z[i] = FRAC((i + 5) % 9 - 4, 9 * N);
    x[i] = 0;
    w[i] = 0;
    for (int j = 0; j < N; j++)
      A[i][j] = FRAC(i * j % 11 - 5, N);
  }
  kernel_gemver(N, alpha, beta, A, u1, v1, u2, v2, w, x, y, z);
  pbc_dump("w", w, N);
  return 0;
}
