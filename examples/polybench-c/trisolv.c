/* trisolv: L x = b, L lower triangular. */
#include "pbc.h"

#ifndef N
#define N 40
#endif

static void kernel_trisolv(int n, DATA_TYPE L[N][N], DATA_TYPE x[N], DATA_TYPE b[N]) {
  int i, j;
  for (i = 0; i < N; i++) {
    x[i] = b[i];
    for (j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = DIV(x[i], L[i][i]);
  }
}

int main(void) {
  static DATA_TYPE L[N][N], x[N], b[N];
  for (int i = 0; i < N; i++) {
    x[i] = -999;
    b[i] = FRAC(i % 11 - 5, 2);
    for (int j = 0; j <= i; j++)
      L[i][j] = i == j ? (DATA_TYPE)(N / 2 + 1) : FRAC((i + N - j + 1) % 5 - 2, N);
  }
  kernel_trisolv(N, L, x, b);
  pbc_dump("x", x, N);
  return 0;
}
