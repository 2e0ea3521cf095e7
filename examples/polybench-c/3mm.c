/* 3mm: G = (A * B) * (C * D). */
#include "pbc.h"

#ifndef NI
#define NI 16
#endif
#ifndef NJ
#define NJ 18
#endif
#ifndef NK
#define NK 20
#endif
#ifndef NL
#define NL 22
#endif
#ifndef NM
#define NM 24
#endif

static void kernel_3mm(int ni, int nj, int nk, int nl, int nm, DATA_TYPE E[NI][NJ],
                       DATA_TYPE A[NI][NK], DATA_TYPE B[NK][NJ], DATA_TYPE F[NJ][NL],
                       DATA_TYPE C[NJ][NM], DATA_TYPE D[NM][NL], DATA_TYPE G[NI][NL]) {
  int i, j, k;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      E[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < NK; ++k)
        E[i][j] += A[i][k] * B[k][j];
    }
  for (i = 0; i < NJ; i++)
    for (j = 0; j < NL; j++) {
      F[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < NM; ++k)
        F[i][j] += C[i][k] * D[k][j];
    }
  for (i = 0; i < NI; i++)
    for (j = 0; j < NL; j++) {
      G[i][j] = SCALAR_VAL(0.0);
      for (k = 0; k < NJ; ++k)
        G[i][j] += E[i][k] * F[k][j];
    }
}

int main(void) {
  static DATA_TYPE E[NI][NJ], A[NI][NK], B[NK][NJ], F[NJ][NL], C[NJ][NM], D[NM][NL], G[NI][NL];
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NK; j++)
      A[i][j] = FRAC((i * j + 1) % 9 - 4, 5 * NI);
  for (int i = 0; i < NK; i++)
    for (int j = 0; j < NJ; j++)
      B[i][j] = FRAC((i * (j + 1) + 2) % 7 - 3, 5 * NJ);
  for (int i = 0; i < NJ; i++)
    for (int j = 0; j < NM; j++)
      C[i][j] = FRAC(i * (j + 3) % 11 - 5, 5 * NL);
  for (int i = 0; i < NM; i++)
    for (int j = 0; j < NL; j++)
      D[i][j] = FRAC((i * (j + 2) + 2) % 5 - 2, 5 * NK);
  kernel_3mm(NI, NJ, NK, NL, NM, E, A, B, F, C, D, G);
  pbc_dump("G", &G[0][0], NI * NL);
  return 0;
}
