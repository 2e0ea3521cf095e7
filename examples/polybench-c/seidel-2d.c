/* seidel-2d: the 2-D Gauss-Seidel stencil, in place. */
#include "pbc.h"

#ifndef TSTEPS
#define TSTEPS 20
#endif
#ifndef N
#define N 40
#endif

/* Nine: a floating constant, or the integer. */
#if defined(DATA_TYPE_IS_INT)
#define NINE 9
#else
#define NINE SCALAR_VAL(9.0)
#endif

static void kernel_seidel_2d(int tsteps, int n, DATA_TYPE A[N][N]) {
  int t, i, j;
  for (t = 0; t <= TSTEPS - 1; t++)
    for (i = 1; i <= N - 2; i++)
      for (j = 1; j <= N - 2; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] + A[i][j - 1] + A[i][j] + A[i][j + 1] +
                   A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) /
                  NINE;
}

int main(void) {
  static DATA_TYPE A[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = FRAC(i * (j + 2) + 2, N) * (DATA_TYPE)10;
  kernel_seidel_2d(TSTEPS, N, A);
  pbc_dump("A", &A[0][0], N * N);
  return 0;
}
