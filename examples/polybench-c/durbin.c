/* durbin: the Toeplitz system of Levinson-Durbin. */
#include "pbc.h"

#ifndef N
#define N 40
#endif

static void kernel_durbin(int n, DATA_TYPE r[N], DATA_TYPE y[N]) {
  DATA_TYPE z[N];
  DATA_TYPE alpha, beta, sum;
  int i, k;
  y[0] = -r[0];
  beta = SCALAR_VAL(1.0);
  alpha = -r[0];
  for (k = 1; k < N; k++) {
    beta = (1 - alpha * alpha) * beta;
    sum = SCALAR_VAL(0.0);
    for (i = 0; i < k; i++)
      sum += r[k - i - 1] * y[i];
    alpha = DIV(-(r[k] + sum), beta);
    for (i = 0; i < k; i++)
      z[i] = y[i] + alpha * y[k - i - 1];
    for (i = 0; i < k; i++)
      y[i] = z[i];
    y[k] = alpha;
  }
}

int main(void) {
  static DATA_TYPE r[N], y[N];
  for (int i = 0; i < N; i++)
    r[i] = FRAC((N + 1 - i) % 5 - 2, 8);
  kernel_durbin(N, r, y);
  pbc_dump("y", y, N);
  return 0;
}
