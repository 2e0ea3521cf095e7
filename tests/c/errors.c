// What a kernel cannot hold is an error at the C source (file:line:col,
// the line quoted), exit 1, nothing written.
// RUN: not silica import-c %s --top fact 2>&1 | FileCheck %s --check-prefix=FACT
// RUN: not silica import-c %s --top ping 2>&1 | FileCheck %s --check-prefix=PING
// RUN: not silica import-c %s --top apply 2>&1 | FileCheck %s --check-prefix=FPTR
// RUN: not silica import-c %s --top heap 2>&1 | FileCheck %s --check-prefix=HEAP
// RUN: not silica import-c %s --top walk 2>&1 | FileCheck %s --check-prefix=WALK
// RUN: not silica import-c %s --top bump 2>&1 | FileCheck %s --check-prefix=BUMP
// RUN: not silica import-c %s --top jump 2>&1 | FileCheck %s --check-prefix=GOTO
// RUN: not silica import-c %s --top member 2>&1 | FileCheck %s --check-prefix=STRUCT
// RUN: not silica import-c %s --top unknown 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not silica import-c %s --top print 2>&1 | FileCheck %s --check-prefix=PRINTF
// RUN: not silica import-c %s --top wide 2>&1 | FileCheck %s --check-prefix=LDOUBLE
// RUN: not silica import-c %s --top count 2>&1 | FileCheck %s --check-prefix=GLOBAL
// RUN: not silica import-c %s --top address 2>&1 | FileCheck %s --check-prefix=ADDRESS
// RUN: not silica import-c %s --top nothere 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not silica hls %s --top heap -o %t.d 2>&1 | FileCheck %s --check-prefix=HEAP
// RUN: not ls %t.d
// clang's own errors come as clang writes them.
// RUN: not silica import-c %s -DBROKEN 2>&1 | FileCheck %s --check-prefix=CLANG

#include <stdio.h>
#include <stdlib.h>

// FACT: errors.c:[[@LINE+3]]:43: error: recursion is not supported in a kernel: 'fact' calls itself
// FACT-NEXT: int fact
// FACT-NEXT: {{^ +}}^
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

int ping(int n);
// PING: errors.c:[[@LINE+1]]:{{[0-9]+}}: error: recursion is not supported in a kernel: 'ping' calls 'pong' calls 'ping'
int pong(int n) { return n > 0 ? ping(n - 1) : 0; }
int ping(int n) { return pong(n); }

// FPTR: errors.c:[[@LINE+1]]:{{[0-9]+}}: error: parameter 'f' is a function pointer: function pointers are not supported in a kernel
int apply(int (*f)(int), int x) { return f(x); }

// HEAP: errors.c:[[@LINE+1]]:{{[0-9]+}}: error: dynamic allocation ('malloc') is not supported in a kernel: use arrays of static size
void heap(int n, int out[4]) { int *p = malloc(n * sizeof(int)); out[0] = p[0]; free(p); }

// WALK: errors.c:[[@LINE+1]]:{{[0-9]+}}: error: pointer variables are not supported in a kernel: subscript the array instead
void walk(int a[8]) { int *p = a; p[1] = 2; }

// BUMP: errors.c:[[@LINE+1]]:{{[0-9]+}}: error: pointer arithmetic that silica cannot bound: a kernel reaches memory only through its array parameters, local arrays and constant global arrays
void bump(int a[8], int b[8]) { for (int i = 0; i < 8; i++) *a++ = b[i]; }

// GOTO: errors.c:[[@LINE+1]]:{{[0-9]+}}: error: goto is not supported in a kernel
void jump(int a[8]) { int i = 0; again: a[i] = i; if (++i < 8) goto again; }

struct point { int x, y; };
// STRUCT: errors.c:[[@LINE+1]]:{{[0-9]+}}: error: parameter 'p' has type 'struct point *': a kernel takes integers, floats and arrays of them
void member(struct point *p, int a[2]) { a[0] = p->x; }

// SIZE: errors.c:[[@LINE+1]]:{{[0-9]+}}: error: the size of array parameter 'x' is unknown: declare it with its size (as 'double x[N]') or pass it arrays of one size
void unknown(double *x, int n) { for (int i = 0; i < n; i++) x[i] = 0; }

// PRINTF: errors.c:[[@LINE+1]]:{{[0-9]+}}: error: 'printf' has no definition in the translation unit: a kernel calls only the functions defined there and those of <math.h>
void print(int a[4]) { printf("%d\n", a[0]); }

// LDOUBLE: errors.c:[[@LINE+1]]:{{[0-9]+}}: error: parameter 'x' has type 'long double': a kernel takes integers, floats and arrays of them
long double wide(long double x) { return x * 2; }

int counter;
// GLOBAL: errors.c:[[@LINE+1]]:{{[0-9]+}}: error: global variable 'counter' is not a constant with an initializer: a kernel reads only constant globals (pass 'counter' as a parameter)
void count(int a[4]) { counter += a[0]; }

// ADDRESS: errors.c:[[@LINE+1]]:{{[0-9]+}}: error: pointer variables are not supported in a kernel: subscript the array instead
void address(int a[4]) { int x = 1; int *p = &x; a[0] = *p; }

// MISSING: error: the translation unit has no definition of function 'nothere' (--top)

#ifdef BROKEN
// CLANG: errors.c:[[@LINE+1]]:{{[0-9]+}}: error: use of undeclared identifier 'undeclared'
int broken(void) { return undeclared; }
#endif
