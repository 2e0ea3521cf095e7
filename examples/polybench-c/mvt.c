/* mvt: x1 += A y1, x2 += A^T y2. */
#include "pbc.h"

#ifndef N
#define N 40
#endif

static void kernel_mvt(int n, DATA_TYPE x1[N], DATA_TYPE x2[N], DATA_TYPE y_1[N],
                       DATA_TYPE y_2[N], DATA_TYPE A[N][N]) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];
}

int main(void) {
  static DATA_TYPE x1[N], x2[N], y_1[N], y_2[N], A[N][N];
  for (int i = 0; i < N; i++) {
    x1[i] = FRAC(i % 5 - 2, N);
    x2[i] = FRAC((i + 1) % 7 - 3, N);
    y_1[i] = FRAC((i + 3) % 9 - 4, N);
    y_2[i] = FRAC((i + 4) % 6 - 3, N);
    for (int j = 0; j < N; j++)
      A[i][j] = FRAC(i * j % 11 - 5, N);
  }
  kernel_mvt(N, x1, x2, y_1, y_2, A);
  pbc_dump("x1", x1, N);
  pbc_dump("x2", x2, N);
  return 0;
}
