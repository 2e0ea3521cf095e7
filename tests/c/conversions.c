// The conversions where C and MLIR differ, checked against clang through
// silica cosim: the program runs as clang builds it and with `convert`
// on the accelerator, and both must print the same. Integer promotions
// of char and short (sums and products that do not wrap at 8 or 16
// bits, comparisons of signed and unsigned chars), the usual arithmetic
// conversions (-1 < 1u is false), unsigned division, remainder and
// shifts beside signed ones (which round toward zero and shift
// arithmetically), conversions of floats to integers (toward zero) and
// of integers to floats (rounded), to _Bool (any non-zero value is 1),
// narrowing (modulo the width), and unsigned wrapping, the one overflow
// C defines.
// RUN: rm -rf %t.sys
// RUN: silica cosim %s --kernel convert -o %t.sys | FileCheck %s
// RUN: FileCheck %s --check-prefix=OUT < %t.sys/software.stdout
// CHECK: system co-simulation of 'convert': 12 lines of output and 0 of error output identical
// OUT: case 0: 127 51000 2000000000 1 0 1999999997 -1 10 0 200 -1 2 -56 65535 1 -1431656789 -112
// OUT-NEXT: 336 -14464 -17 2 -125 0 23
// OUT-NEXT: 0x1p+64
// OUT-NEXT: inf

#include <stdint.h>
#include <stdio.h>

#define K 24

void convert(signed char sc[8], unsigned char uc[8], short ss[8], unsigned short us[8],
             int si[8], unsigned ui[8], float f[8], double d[8], int64_t l[8], uint64_t ul[8],
             int out[K], double outf[4]) {
  int o = 0;
  out[o++] = sc[0] + uc[0];              /* promoted: no wrap at 8 bits */
  out[o++] = uc[1] * uc[2];              /* int product */
  out[o++] = us[0] * us[1];              /* int product of two shorts */
  out[o++] = sc[1] < uc[1];              /* signed -1 < 255 as int: true */
  out[o++] = si[0] < ui[0];              /* -1 < 1u: converted to unsigned, false */
  out[o++] = si[1] / 2 + ui[1] / 2u;     /* toward zero; unsigned */
  out[o++] = si[1] % 2 + (int)(ui[1] % 10u);
  out[o++] = (si[1] >> 1) + (int)(ui[1] >> 28); /* arithmetic, logical */
  out[o++] = (int)f[0] + (int)d[0];      /* toward zero */
  out[o++] = (unsigned char)d[1];        /* 200.9 -> 200 */
  out[o++] = (int)(float)si[2] - si[2];  /* rounded to 2^24 + 0 */
  out[o++] = (_Bool)si[3] + (_Bool)f[1]; /* 256 and 0.5 are true */
  out[o++] = (signed char)ui[2];         /* modulo 2^8: 200 -> -56 */
  out[o++] = (unsigned short)si[0];      /* -1 -> 65535 */
  out[o++] = (int)(ul[0] + 2u);          /* unsigned wraps: 1 */
  out[o++] = (int)(l[0] / 3) + (int)(l[0] >> 40);
  signed char c = sc[2];
  c += 300;                              /* in int, then narrowed */
  out[o++] = c;
  unsigned char u8 = uc[3];
  u8 <<= 3;
  out[o++] = u8 + (uc[3] << 3);
  out[o++] = (short)(ss[0] * 2) + ss[0] * 2; /* narrowed, and in int */
  out[o++] = -sc[3] + ~uc[4];
  out[o++] = (ui[3] > 0x80000000u) + ((int)ui[3] < 0);
  out[o++] = ss[1] >> 3;
  out[o++] = (int)(unsigned char)-d[2];  /* the double is converted, not negated */
  out[o] = o;                            /* 23 values */
  outf[0] = (double)ui[0] + (double)ul[1];
  outf[1] = (float)d[3];
  outf[2] = si[1] / 2.0f;
  outf[3] = uc[0] / 3 * 3.0;
}

int main(void) {
  static signed char sc[8] = {-128, -1, 100, 7};
  static unsigned char uc[8] = {255, 255, 200, 37, 9};
  static short ss[8] = {-20000, -1000};
  static unsigned short us[8] = {40000, 50000};
  static int si[8] = {-1, -7, 16777217, 256};
  static unsigned ui[8] = {1, 4000000000u, 200, 3000000000u};
  static float f[8] = {-2.7f, 0.5f};
  static double d[8] = {2.99, 200.9, 0.0, 1e300};
  static int64_t l[8] = {-(INT64_C(1) << 50)};
  static uint64_t ul[8] = {UINT64_MAX, UINT64_MAX};
  static int out[K];
  static double outf[4];
  for (int round = 0; round < 2; round++) {
    convert(sc, uc, ss, us, si, ui, f, d, l, ul, out, outf);
    printf("case %d:", round);
    for (int i = 0; i < 17; i++)
      printf(" %d", out[i]);
    printf("\n");
    printf("       ");
    for (int i = 17; i < K; i++)
      printf(" %d", out[i]);
    printf("\n");
    for (int i = 0; i < 4; i++)
      printf("  %a\n", outf[i]);
    /* Other values for the second round. */
    for (int i = 0; i < 4; i++) {
      sc[i] = (signed char)(sc[i] + 77);
      uc[i] = (unsigned char)(uc[i] * 3);
      si[i] = si[i] * 3 + 1;
      ui[i] = ui[i] / 3 + 5;
      d[i] = d[i] / 2;
    }
    d[3] = 1e9;
  }
  return 0;
}
