/* symm: C = alpha A B + beta C, A symmetric (its lower triangle). */
#include "pbc.h"

#ifndef M
#define M 20
#endif
#ifndef N
#define N 30
#endif

static void kernel_symm(int m, int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE C[M][N],
                        DATA_TYPE A[M][M], DATA_TYPE B[M][N]) {
  int i, j, k;
  DATA_TYPE temp2;
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++) {
      temp2 = 0;
      for (k = 0; k < i; k++) {
        C[k][j] += alpha * B[i][j] * A[i][k];
        temp2 += B[k][j] * A[i][k];
      }
      C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
    }
}

int main(void) {
  static DATA_TYPE C[M][N], A[M][M], B[M][N];
  DATA_TYPE alpha = SCALAR_VAL(1.5), beta = SCALAR_VAL(1.2);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      C[i][j] = FRAC((i + j) % 9 - 4, M);
      B[i][j] = FRAC((N + i - j) % 7 - 3, M);
    }
  for (int i = 0; i < M; i++) {
    for (int j = 0; j <= i; j++)
      A[i][j] = FRAC((i + j) % 5 - 2, M);
    for (int j = i + 1; j < M; j++)
      A[i][j] = -999;
  }
  kernel_symm(M, N, alpha, beta, C, A, B);
  pbc_dump("C", &C[0][0], M * N);
  return 0;
}
