/* gemm: C = alpha * A * B + beta * C. */
#include "pbc.h"

#ifndef NI
#define NI 20
#endif
#ifndef NJ
#define NJ 25
#endif
#ifndef NK
#define NK 30
#endif

static void kernel_gemm(int ni, int nj, int nk, DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE C[NI][NJ], DATA_TYPE A[NI][NK], DATA_TYPE B[NK][NJ]) {
  int i, j, k;
  for (i = 0; i < NI; i++) {
    for (j = 0; j < NJ; j++)
      C[i][j] *= beta;
    for (k = 0; k < NK; k++)
      for (j = 0; j < NJ; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
}

int main(void) {
  static DATA_TYPE C[NI][NJ], A[NI][NK], B[NK][NJ];
  DATA_TYPE alpha = SCALAR_VAL(1.5), beta = SCALAR_VAL(1.2);
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      C[i][j] = FRAC((i * j + 1) % 13 - 6, NI);
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A[i][k] = FRAC(i * (k + 1) % 11 - 5, NK);
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B[k][j] = FRAC(k * (j + 2) % 9 - 4, NJ);
  kernel_gemm(NI, NJ, NK, alpha, beta, C, A, B);
  pbc_dump("C", &C[0][0], NI * NJ);
  return 0;
}
