/* correlation: the correlation matrix of N data points of M attributes. */
#include "pbc.h"

#ifndef M
#define M 28
#endif
#ifndef N
#define N 32
#endif

static void kernel_correlation(int m, int n, DATA_TYPE float_n, DATA_TYPE data[N][M],
                               DATA_TYPE corr[M][M], DATA_TYPE mean[M], DATA_TYPE stddev[M]) {
  int i, j, k;
  DATA_TYPE eps = SCALAR_VAL(0.1);
  for (j = 0; j < M; j++) {
    mean[j] = SCALAR_VAL(0.0);
    for (i = 0; i < N; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }
  for (j = 0; j < M; j++) {
    stddev[j] = SCALAR_VAL(0.0);
    for (i = 0; i < N; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = SQRT_FUN(stddev[j]);
    /* A deviation near zero would divide by zero below. */
    stddev[j] = stddev[j] <= eps ? SCALAR_VAL(1.0) : stddev[j];
  }
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      data[i][j] -= mean[j];
      data[i][j] /= SQRT_FUN(float_n) * stddev[j];
    }
  for (i = 0; i < M - 1; i++) {
    corr[i][i] = SCALAR_VAL(1.0);
    for (j = i + 1; j < M; j++) {
      corr[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < N; k++)
        corr[i][j] += (data[k][i] * data[k][j]);
      corr[j][i] = corr[i][j];
    }
  }
  corr[M - 1][M - 1] = SCALAR_VAL(1.0);
}

int main(void) {
  static DATA_TYPE data[N][M], corr[M][M], mean[M], stddev[M];
  DATA_TYPE float_n = (DATA_TYPE)N;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      data[i][j] = FRAC(i * j % 17 + i % 3, M) + (DATA_TYPE)i;
  kernel_correlation(M, N, float_n, data, corr, mean, stddev);
  pbc_dump("corr", &corr[0][0], M * M);
  return 0;
}
