/* ludcmp: A x = b by LU decomposition and two triangular solves. */
#include "pbc.h"

#ifndef N
#define N 40
#endif

static void kernel_ludcmp(int n, DATA_TYPE A[N][N], DATA_TYPE b[N], DATA_TYPE x[N],
                          DATA_TYPE y[N]) {
  int i, j, k;
  DATA_TYPE w;
  for (i = 0; i < N; i++) {
    for (j = 0; j < i; j++) {
      w = A[i][j];
      for (k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = DIV(w, A[j][j]);
    }
    for (j = i; j < N; j++) {
      w = A[i][j];
      for (k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
  }
  for (i = 0; i < N; i++) {
    w = b[i];
    for (j = 0; j < i; j++)
      w -= A[i][j] * y[j];
    y[i] = w;
  }
  for (i = N - 1; i >= 0; i--) {
    w = y[i];
    for (j = i + 1; j < N; j++)
      w -= A[i][j] * x[j];
    x[i] = DIV(w, A[i][i]);
  }
}

int main(void) {
  static DATA_TYPE A[N][N], b[N], x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0;
    y[i] = 0;
    b[i] = FRAC(i % 9 - 4, N);
    for (int j = 0; j < N; j++)
      A[i][j] = i == j ? (DATA_TYPE)(2 * N) : FRAC((i + 2 * j) % 7 - 3, 4);
  }
  kernel_ludcmp(N, A, b, x, y);
  pbc_dump("x", x, N);
  return 0;
}
