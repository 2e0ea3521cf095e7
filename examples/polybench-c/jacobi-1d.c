/* jacobi-1d: the 1-D Jacobi stencil. */
#include "pbc.h"

#ifndef TSTEPS
#define TSTEPS 20
#endif
#ifndef N
#define N 30
#endif

/* A third, as a double literal times the sum (so a float build takes
   the product in double), or the sum divided by 3 in integers. */
#if defined(DATA_TYPE_IS_INT)
#define THIRD(x) ((x) / 3)
#else
#define THIRD(x) (0.33333 * (x))
#endif

static void kernel_jacobi_1d(int tsteps, int n, DATA_TYPE A[N], DATA_TYPE B[N]) {
  int t, i;
  for (t = 0; t < TSTEPS; t++) {
    for (i = 1; i < N - 1; i++)
      B[i] = THIRD(A[i - 1] + A[i] + A[i + 1]);
    for (i = 1; i < N - 1; i++)
      A[i] = THIRD(B[i - 1] + B[i] + B[i + 1]);
  }
}

int main(void) {
  static DATA_TYPE A[N], B[N];
  for (int i = 0; i < N; i++) {
    A[i] = FRAC(i + 2, N) * (DATA_TYPE)100;
    B[i] = FRAC(i + 3, N) * (DATA_TYPE)100;
  }
  kernel_jacobi_1d(TSTEPS, N, A, B);
  pbc_dump("A", A, N);
  return 0;
}
