/* What the programs of examples/polybench-c share: the element type
   (-DDATA_TYPE_IS_INT, -DDATA_TYPE_IS_FLOAT, double by default), its
   literals and math functions, the integer forms of constant factors and
   divisions, initial values, and the dump of arrays (standard error, %a
   for floating values: every bit) and their sums (standard output). */
#ifndef PBC_H
#define PBC_H

#include <math.h>
#include <stdio.h>

#if defined(DATA_TYPE_IS_INT)
typedef int DATA_TYPE;
#define DATA_PRINTF_MODIFIER "%d "
#define SCALAR_VAL(x) x
#define SQRT_FUN(x) sqrt(x)
#define EXP_FUN(x) exp(x)
#define POW_FUN(x, y) pow(x, y)
#elif defined(DATA_TYPE_IS_FLOAT)
typedef float DATA_TYPE;
#define DATA_PRINTF_MODIFIER "%a "
#define SCALAR_VAL(x) x##f
#define SQRT_FUN(x) sqrtf(x)
#define EXP_FUN(x) expf(x)
#define POW_FUN(x, y) powf(x, y)
#else
typedef double DATA_TYPE;
#define DATA_PRINTF_MODIFIER "%a "
#define SCALAR_VAL(x) x
#define SQRT_FUN(x) sqrt(x)
#define EXP_FUN(x) exp(x)
#define POW_FUN(x, y) pow(x, y)
#endif

#if defined(DATA_TYPE_IS_INT)
/* A constant factor num/den (the real value `value`) times x, in
   integers: (num * x) / den. */
#define SCALE(num, den, value, x) (((num) * (x)) / (den))
/* a / b, dividing by 1 where b is 0 in integers. */
#define DIV(a, b) ((a) / ((b) == 0 ? 1 : (b)))
/* An initial value n / d: its numerator in integers. */
#define FRAC(n, d) ((DATA_TYPE)(n))
#else
#define SCALE(num, den, value, x) (SCALAR_VAL(value) * (x))
#define DIV(a, b) ((a) / (b))
#define FRAC(n, d) ((DATA_TYPE)(n) / (DATA_TYPE)(d))
#endif

/* Writes the n values of array `name` to standard error, twenty a line,
   and their sum to standard output. */
static void pbc_dump(const char *name, const DATA_TYPE *a, int n) {
  double sum = 0;
  fprintf(stderr, "begin dump: %s", name);
  for (int i = 0; i < n; i++) {
    if (i % 20 == 0)
      fprintf(stderr, "\n");
    fprintf(stderr, DATA_PRINTF_MODIFIER, a[i]);
    sum += (double)a[i];
  }
  fprintf(stderr, "\nend   dump: %s\n", name);
  printf("%s: %d values, sum %a\n", name, n, sum);
}

#endif
