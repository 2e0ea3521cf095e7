/* 2mm: D = alpha * A * B * C + beta * D. */
#include "pbc.h"

#ifndef NI
#define NI 16
#endif
#ifndef NJ
#define NJ 18
#endif
#ifndef NK
#define NK 22
#endif
#ifndef NL
#define NL 24
#endif

static void kernel_2mm(int ni, int nj, int nk, int nl, DATA_TYPE alpha, DATA_TYPE beta,
                       DATA_TYPE tmp[NI][NJ], DATA_TYPE A[NI][NK], DATA_TYPE B[NK][NJ],
                       DATA_TYPE C[NJ][NL], DATA_TYPE D[NI][NL]) {
  int i, j, k;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      tmp[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < NK; ++k)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (i = 0; i < NI; i++)
    for (j = 0; j < NL; j++) {
      D[i][j] *= beta;
      for (k = 0; k < NJ; ++k)
        D[i][j] += tmp[i][k] * C[k][j];
    }
}

int main(void) {
  static DATA_TYPE tmp[NI][NJ], A[NI][NK], B[NK][NJ], C[NJ][NL], D[NI][NL];
  DATA_TYPE alpha = SCALAR_VAL(1.5), beta = SCALAR_VAL(1.2);
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A[i][k] = FRAC((i * k + 1) % 7 - 3, NI);
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B[k][j] = FRAC(k * (j + 1) % 5 - 2, NJ);
  for (int j = 0; j < NJ; j++)
    for (int l = 0; l < NL; l++)
      C[j][l] = FRAC((j * (l + 3) + 1) % 9 - 4, NL);
  for (int i = 0; i < NI; i++)
    for (int l = 0; l < NL; l++)
      D[i][l] = FRAC(i * (l + 2) % 11 - 5, NK);
  kernel_2mm(NI, NJ, NK, NL, alpha, beta, tmp, A, B, C, D);
  pbc_dump("D", &D[0][0], NI * NL);
  return 0;
}
