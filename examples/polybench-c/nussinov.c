/* nussinov: the most pairs of bases of an RNA sequence that bond. */
#include "pbc.h"

#ifndef N
#define N 60
#endif

typedef char base;
#define match(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)
#define max_score(s1, s2) ((s1 >= s2) ? s1 : s2)

static void kernel_nussinov(int n, base seq[N], DATA_TYPE table[N][N]) {
  int i, j, k;
  for (i = N - 1; i >= 0; i--) {
    for (j = i + 1; j < N; j++) {
      if (j - 1 >= 0)
        table[i][j] = max_score(table[i][j], table[i][j - 1]);
      if (i + 1 < N)
        table[i][j] = max_score(table[i][j], table[i + 1][j]);
      if (j - 1 >= 0 && i + 1 < N) {
        /* Neighbours do not bond. */
        if (i < j - 1)
          table[i][j] = max_score(table[i][j], table[i + 1][j - 1] + match(seq[i], seq[j]));
        else
          table[i][j] = max_score(table[i][j], table[i + 1][j - 1]);
      }
      for (k = i + 1; k < j; k++)
        table[i][j] = max_score(table[i][j], table[i][k] + table[k + 1][j]);
    }
  }
}

int main(void) {
  static base seq[N];
  static DATA_TYPE table[N][N];
  for (int i = 0; i < N; i++)
    seq[i] = (base)((i + 1) % 4);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      table[i][j] = 0;
  kernel_nussinov(N, seq, table);
  pbc_dump("table", &table[0][0], N * N);
  return 0;
}
