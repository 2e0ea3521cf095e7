// A whole C program through silica cosim: built by clang as written,
// and with `saxpy` replaced by the accelerator (its host stub over the
// sim backend). Both print to standard output and standard error (%a:
// every bit of a double), which must be identical. The kernel lives in
// a file of its own (cosim-kernel.c, no RUN lines) beside main.
// RUN: rm -rf %t.sys
// RUN: silica cosim %s %S/cosim-kernel.c --kernel saxpy -DN=24 -o %t.sys | FileCheck %s
// RUN: FileCheck %s --check-prefix=OUT < %t.sys/software.stdout
// RUN: FileCheck %s --check-prefix=ERR < %t.sys/software.stderr
// The replacement keeps the kernel's C signature.
// RUN: FileCheck %s --check-prefix=STUB < %t.sys/saxpy_c.c
// The program with the accelerator runs again on its own.
// RUN: %t.sys/obj/hardware > %t.out 2> %t.err && diff %t.out %t.sys/software.stdout
// The same program with the kernel in the emulated board shell, through
// the uart backend.
// RUN: silica cosim %s %S/cosim-kernel.c --kernel saxpy -DN=8 --shell uart --baud 3125000 | FileCheck %s --check-prefix=UART
// A kernel no file defines.
// RUN: not silica cosim %s %S/cosim-kernel.c --kernel nothere -DN=24 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: system co-simulation of 'saxpy': 3 lines of output and 24 of error output identical (software {{[0-9.]+}} s, with the accelerator {{[0-9.]+}} s)
// CHECK-NEXT: call 1: {{[0-9]+}} cycles
// CHECK-NEXT: call 2: {{[0-9]+}} cycles
// OUT: call 1: 24 elements, checksum
// OUT-NEXT: call 2: 24 elements, checksum
// OUT-NEXT: done
// ERR: 0x1.cp+0
// STUB: extern int saxpy_ciface(double, void *, void *, int, int *);
// STUB: int saxpy(double p0, void * p1, void * p2, int p3) {
// UART: system co-simulation of 'saxpy': 3 lines of output and 8 of error output identical
// MISSING: error: no file of the program defines the kernel 'nothere'

#include <stdio.h>

int saxpy(double a, double x[N], double y[N], int n);

int main(void) {
  static double x[N], y[N];
  for (int call = 1; call <= 2; call++) {
    for (int i = 0; i < N; i++) {
      x[i] = (double)(i + call) / 3.0;
      y[i] = 1.0 - (double)i * 0.25;
    }
    int changed = saxpy(call * 0.5, x, y, N);
    double sum = 0;
    for (int i = 0; i < N; i++)
      sum += y[i];
    printf("call %d: %d elements, checksum %a\n", call, changed, sum);
    if (call == 2)
      for (int i = 0; i < N; i++)
        fprintf(stderr, "%a\n", y[i]);
  }
  printf("done\n");
  return 0;
}
