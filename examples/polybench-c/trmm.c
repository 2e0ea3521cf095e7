/* trmm: B = alpha A^T B, A unit lower triangular. */
#include "pbc.h"

#ifndef M
#define M 20
#endif
#ifndef N
#define N 30
#endif

static void kernel_trmm(int m, int n, DATA_TYPE alpha, DATA_TYPE A[M][M], DATA_TYPE B[M][N]) {
  int i, j, k;
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++) {
      for (k = i + 1; k < M; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

int main(void) {
  static DATA_TYPE A[M][M], B[M][N];
  DATA_TYPE alpha = SCALAR_VAL(1.5);
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < i; j++)
      A[i][j] = FRAC((i + j) % 7 - 3, M);
    A[i][i] = 1;
    for (int j = 0; j < N; j++)
      B[i][j] = FRAC((N + i - j) % 9 - 4, N);
  }
  kernel_trmm(M, N, alpha, A, B);
  pbc_dump("B", &B[0][0], M * N);
  return 0;
}
