/* fdtd-2d: finite-difference time-domain electromagnetics in 2-D. */
#include "pbc.h"

#ifndef TMAX
#define TMAX 20
#endif
#ifndef NX
#define NX 20
#endif
#ifndef NY
#define NY 30
#endif

static void kernel_fdtd_2d(int tmax, int nx, int ny, DATA_TYPE ex[NX][NY], DATA_TYPE ey[NX][NY],
                           DATA_TYPE hz[NX][NY], DATA_TYPE fict[TMAX]) {
  int t, i, j;
  for (t = 0; t < TMAX; t++) {
    for (j = 0; j < NY; j++)
      ey[0][j] = fict[t];
    for (i = 1; i < NX; i++)
      for (j = 0; j < NY; j++)
        ey[i][j] = ey[i][j] - SCALE(1, 2, 0.5, hz[i][j] - hz[i - 1][j]);
    for (i = 0; i < NX; i++)
      for (j = 1; j < NY; j++)
        ex[i][j] = ex[i][j] - SCALE(1, 2, 0.5, hz[i][j] - hz[i][j - 1]);
    for (i = 0; i < NX - 1; i++)
      for (j = 0; j < NY - 1; j++)
        hz[i][j] = hz[i][j] - SCALE(7, 10, 0.7, ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
}

int main(void) {
  static DATA_TYPE ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[TMAX];
  for (int t = 0; t < TMAX; t++)
    fict[t] = (DATA_TYPE)t;
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      ex[i][j] = FRAC(i * (j + 1) % 13, NX);
      ey[i][j] = FRAC(i * (j + 2) % 11, NY);
      hz[i][j] = FRAC(i * (j + 3) % 7, NX);
    }
  kernel_fdtd_2d(TMAX, NX, NY, ex, ey, hz, fict);
  pbc_dump("ex", &ex[0][0], NX * NY);
  pbc_dump("ey", &ey[0][0], NX * NY);
  pbc_dump("hz", &hz[0][0], NX * NY);
  return 0;
}
