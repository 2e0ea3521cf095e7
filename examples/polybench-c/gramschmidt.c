/* gramschmidt: QR decomposition by modified Gram-Schmidt. */
#include "pbc.h"

#ifndef M
#define M 20
#endif
#ifndef N
#define N 30
#endif

static void kernel_gramschmidt(int m, int n, DATA_TYPE A[M][N], DATA_TYPE R[N][N],
                               DATA_TYPE Q[M][N]) {
  int i, j, k;
  DATA_TYPE nrm;
  for (k = 0; k < N; k++) {
    nrm = SCALAR_VAL(0.0);
    for (i = 0; i < M; i++)
      nrm += A[i][k] * A[i][k];
    R[k][k] = SQRT_FUN(nrm);
    for (i = 0; i < M; i++)
      Q[i][k] = DIV(A[i][k], R[k][k]);
    for (j = k + 1; j < N; j++) {
      R[k][j] = SCALAR_VAL(0.0);
      for (i = 0; i < M; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (i = 0; i < M; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
  }
}

int main(void) {
  static DATA_TYPE A[M][N], R[N][N], Q[M][N];
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = FRAC((i * j + 3) % 11 + 1, 2 * M) + (i == j % M ? 10 : 0);
      Q[i][j] = 0;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      R[i][j] = 0;
  kernel_gramschmidt(M, N, A, R, Q);
  pbc_dump("R", &R[0][0], N * N);
  pbc_dump("Q", &Q[0][0], M * N);
  return 0;
}
