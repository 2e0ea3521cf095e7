/* gesummv: y = alpha A x + beta B x. */
#include "pbc.h"

#ifndef N
#define N 30
#endif

static void kernel_gesummv(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE A[N][N],
                           DATA_TYPE B[N][N], DATA_TYPE tmp[N], DATA_TYPE x[N], DATA_TYPE y[N]) {
  int i, j;
  for (i = 0; i < N; i++) {
    tmp[i] = SCALAR_VAL(0.0);
    y[i] = SCALAR_VAL(0.0);
    for (j = 0; j < N; j++) {
      tmp[i] = A[i][j] * x[j] + tmp[i];
      y[i] = B[i][j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

int main(void) {
  static DATA_TYPE A[N][N], B[N][N], tmp[N], x[N], y[N];
  DATA_TYPE alpha = SCALAR_VAL(1.5), beta = SCALAR_VAL(1.2);
  for (int i = 0; i < N; i++) {
    x[i] = FRAC(i % 7 - 3, N);
    for (int j = 0; j < N; j++) {
      A[i][j] = FRAC((i * j + 1) % 9 - 4, N);
      B[i][j] = FRAC((i * j + 2) % 5 - 2, N);
    }
  }
  kernel_gesummv(N, alpha, beta, A, B, tmp, x, y);
  pbc_dump("y", y, N);
  return 0;
}
