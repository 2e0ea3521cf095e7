/* cholesky: A = L L^T, L in the lower triangle of A. */
#include "pbc.h"

#ifndef N
#define N 40
#endif

static void kernel_cholesky(int n, DATA_TYPE A[N][N]) {
  int i, j, k;
  for (i = 0; i < N; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] = DIV(A[i][j], A[j][j]);
    }
    for (k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = SQRT_FUN(A[i][i]);
  }
}

int main(void) {
  static DATA_TYPE A[N][N];
  /* A symmetric positive definite matrix: diagonally dominant. */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = i == j ? (DATA_TYPE)(4 * N) : FRAC((i + j) % 5 - 2, 4);
  kernel_cholesky(N, A);
  pbc_dump("A", &A[0][0], N * N);
  return 0;
}
