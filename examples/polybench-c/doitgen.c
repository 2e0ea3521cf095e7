/* doitgen: multiresolution analysis, A[r][q] = A[r][q] C4. */
#include "pbc.h"

#ifndef NQ
#define NQ 8
#endif
#ifndef NR
#define NR 10
#endif
#ifndef NP
#define NP 12
#endif

static void kernel_doitgen(int nr, int nq, int np, DATA_TYPE A[NR][NQ][NP], DATA_TYPE C4[NP][NP],
                           DATA_TYPE sum[NP]) {
  int r, q, p, s;
  for (r = 0; r < NR; r++)
    for (q = 0; q < NQ; q++) {
      for (p = 0; p < NP; p++) {
        sum[p] = SCALAR_VAL(0.0);
        for (s = 0; s < NP; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < NP; p++)
        A[r][q][p] = sum[p];
    }
}

int main(void) {
  static DATA_TYPE A[NR][NQ][NP], C4[NP][NP], sum[NP];
  for (int i = 0; i < NR; i++)
    for (int j = 0; j < NQ; j++)
      for (int k = 0; k < NP; k++)
        A[i][j][k] = FRAC((i * j + k) % 9 - 4, NP);
  for (int i = 0; i < NP; i++)
    for (int j = 0; j < NP; j++)
      C4[i][j] = FRAC(i * j % 7 - 3, NP);
  kernel_doitgen(NR, NQ, NP, A, C4, sum);
  pbc_dump("A", &A[0][0][0], NR * NQ * NP);
  return 0;
}
