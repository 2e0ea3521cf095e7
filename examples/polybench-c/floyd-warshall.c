/* floyd-warshall: the shortest paths between all pairs of nodes. */
#include "pbc.h"

#ifndef N
#define N 60
#endif

static void kernel_floyd_warshall(int n, DATA_TYPE path[N][N]) {
  int i, j, k;
  for (k = 0; k < N; k++)
    for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
        path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
}

int main(void) {
  static DATA_TYPE path[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      path[i][j] = (DATA_TYPE)(i * j % 7 + 1);
      if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
        path[i][j] = 999;
    }
  kernel_floyd_warshall(N, path);
  pbc_dump("path", &path[0][0], N * N);
  return 0;
}
