/* bicg: the BiCG sub-kernel, s = A^T r and q = A p. */
#include "pbc.h"

#ifndef M
#define M 38
#endif
#ifndef N
#define N 42
#endif

static void kernel_bicg(int m, int n, DATA_TYPE A[N][M], DATA_TYPE s[M], DATA_TYPE q[N],
                        DATA_TYPE p[M], DATA_TYPE r[N]) {
  int i, j;
  for (i = 0; i < M; i++)
    s[i] = 0;
  for (i = 0; i < N; i++) {
    q[i] = SCALAR_VAL(0.0);
    for (j = 0; j < M; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
}

int main(void) {
  static DATA_TYPE A[N][M], s[M], q[N], p[M], r[N];
  for (int i = 0; i < M; i++)
    p[i] = FRAC(i % 5 - 2, M);
  for (int i = 0; i < N; i++) {
    r[i] = FRAC(i % 7 - 3, N);
    for (int j = 0; j < M; j++)
      A[i][j] = FRAC(i * (j + 1) % 9 - 4, N);
  }
  kernel_bicg(M, N, A, s, q, p, r);
  pbc_dump("s", s, M);
  pbc_dump("q", q, N);
  return 0;
}
