// <math.h> in a kernel, co-simulated: sqrt, fabs, exp, log and pow
// become math ops (pipelined IEEE operators; exp, log and pow within
// 1 ulp), fmax and fmin C's rule for NaN operands (the other one), in
// float and double (the double exp, log and pow are left out: their
// circuits take minutes to simulate); abs of an int math.absi.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top maths -o %t.d --sim | FileCheck %s --check-prefix=SIM
// RUN: silica import-c %s | FileCheck %s

// SIM: co-simulation (seed 1): {{[0-9]+}} values match
// CHECK-DAG: math.sqrt %{{.*}} : f64
// CHECK-DAG: math.sqrt %{{.*}} : f32
// CHECK-DAG: math.absf %{{.*}} : f32
// CHECK-DAG: math.exp %{{.*}} : f32
// CHECK-DAG: math.log %{{.*}} : f32
// CHECK-DAG: math.powf %{{.*}} : f32
// CHECK-DAG: arith.cmpf uno
// CHECK-DAG: math.absi %{{.*}} : i32

#include <math.h>
#include <stdlib.h>

void maths(float f[8], double d[8], int n[8]) {
  for (int i = 0; i < 8; i++) {
    float x = fabsf(f[i]);
    double y = d[i];
    f[i] = sqrtf(x) + logf(x + 1.0f) + fmaxf(x, f[(i + 1) % 8]);
    d[i] = sqrt(fabs(y)) + fmin(y, d[7 - i]);
    f[i] += expf(x / 64.0f) * powf(x, 0.5f);
    n[i] = abs(n[i] % 1000);
  }
}
