/* lu: LU decomposition in place, without pivoting. */
#include "pbc.h"

#ifndef N
#define N 40
#endif

static void kernel_lu(int n, DATA_TYPE A[N][N]) {
  int i, j, k;
  for (i = 0; i < N; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] = DIV(A[i][j], A[j][j]);
    }
    for (j = i; j < N; j++)
      for (k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
}

int main(void) {
  static DATA_TYPE A[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = i == j ? (DATA_TYPE)(2 * N) : FRAC((i * j + 1) % 7 - 3, 4);
  kernel_lu(N, A);
  pbc_dump("A", &A[0][0], N * N);
  return 0;
}
