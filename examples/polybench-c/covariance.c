/* covariance: the covariance matrix of N data points of M attributes. */
#include "pbc.h"

#ifndef M
#define M 28
#endif
#ifndef N
#define N 32
#endif

static void kernel_covariance(int m, int n, DATA_TYPE float_n, DATA_TYPE data[N][M],
                              DATA_TYPE cov[M][M], DATA_TYPE mean[M]) {
  int i, j, k;
  for (j = 0; j < M; j++) {
    mean[j] = SCALAR_VAL(0.0);
    for (i = 0; i < N; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] -= mean[j];
  for (i = 0; i < M; i++)
    for (j = i; j < M; j++) {
      cov[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < N; k++)
        cov[i][j] += data[k][i] * data[k][j];
      cov[i][j] /= (float_n - SCALAR_VAL(1.0));
      cov[j][i] = cov[i][j];
    }
}

int main(void) {
  static DATA_TYPE data[N][M], cov[M][M], mean[M];
  DATA_TYPE float_n = (DATA_TYPE)N;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      data[i][j] = FRAC((i * j + 5) % 13 - 6, M);
  kernel_covariance(M, N, float_n, data, cov, mean);
  pbc_dump("cov", &cov[0][0], M * M);
  return 0;
}
