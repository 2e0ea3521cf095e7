// silica hls --auto of a C kernel writes in its directives file the
// command that rebuilds the same design: the C options (-I, -D, --std)
// included, without which the kernel does not compile (N and SCALE come
// from them). silica dse reads the same C and explores the space
// --auto derived (evaluated at the estimate level, as --auto's
// points are).
// RUN: rm -rf %t %t.again %t.dse
// RUN: silica hls %s --top scale --auto -I %S/include -D N=16 -D 'OFFSET=(1 + 2)' --std c11 -o %t > /dev/null
// RUN: FileCheck %s < %t/scale.directives.toml
// RUN: eval "silica $(sed -n 's|^# silica\( hls .*\)|\1|p' %t/scale.directives.toml) -o %t.again" > /dev/null
// RUN: diff %t/scale.sv %t.again/scale.sv
// RUN: silica dse %s --top scale -I %S/include -D N=16 -D 'OFFSET=(1 + 2)' --std c11 -o %t.dse | FileCheck %s --check-prefix=DSE
// RUN: diff %t/scale.space.toml %t.dse/space.toml
// RUN: not silica dse %s --top scale -o %t.dse 2>&1 | FileCheck %s --check-prefix=NOFLAGS
// CHECK: # Chosen by silica hls --auto
// CHECK-NEXT: # silica hls {{.*}}auto.c --top scale --target ecp5-25k --directives {{.*}}scale.directives.toml -I {{.*}}/include -D N=16 -D 'OFFSET=(1 + 2)' --std c11{{$}}

// DSE: silica dse: scale in {{.*}}auto.c, 8 point(s) in the space
// DSE: outputs in
// NOFLAGS: error:

#include "scale.h"

void scale(int A[N], int B[N]) {
  for (int i = 0; i < N; i++)
    B[i] = A[i] * SCALE + OFFSET;
}
