// silica hls --auto of a C kernel writes in its directives file the
// command that rebuilds the same design: the C options (-I, -D, --std)
// included, without which the kernel does not compile (N and SCALE come
// from them).
// RUN: rm -rf %t %t.again
// RUN: silica hls %s --top scale --auto -I %S/include -D N=16 -D 'OFFSET=(1 + 2)' --std c11 -o %t > /dev/null
// RUN: FileCheck %s < %t/scale.directives.toml
// RUN: eval "silica $(sed -n 's|^# silica\( hls .*\)|\1|p' %t/scale.directives.toml) -o %t.again" > /dev/null
// RUN: diff %t/scale.sv %t.again/scale.sv
// CHECK: # Chosen by silica hls --auto
// CHECK-NEXT: # silica hls {{.*}}auto.c --top scale --target ecp5-25k --directives {{.*}}scale.directives.toml -I {{.*}}/include -D N=16 -D 'OFFSET=(1 + 2)' --std c11{{$}}

#include "scale.h"

void scale(int A[N], int B[N]) {
  for (int i = 0; i < N; i++)
    B[i] = A[i] * SCALE + OFFSET;
}
