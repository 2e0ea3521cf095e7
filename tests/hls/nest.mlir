// A perfect nest of three loops: the latch of the middle loop, leaving
// it, runs the outer loop's latch, which enters the middle loop again in
// the same transition; the fresh counter must win over the stepped one.
// Co-simulated pipelined and sequential.
// RUN: rm -rf %t.d %t.seq
// RUN: silica hls %s --top mac -o %t.d --sim | FileCheck %s
// RUN: silica hls %s --top mac -o %t.seq --sim --no-pipeline | FileCheck %s --check-prefix=SEQ
// CHECK: co-simulation (seed 1): 48 values match, latency 161 cycles
// CHECK: mac/0/0/0: trip 4, pipelined, II 2 (ResMII 2, RecMII 1)
// SEQ: co-simulation (seed 1): 48 values match, latency 193 cycles
func.func @mac(%alpha: i32, %C: memref<4x4xi32>, %A: memref<4x4xi32>, %B: memref<4x4xi32>) {
  affine.for %i = 0 to 4 {
    affine.for %k = 0 to 4 {
      affine.for %j = 0 to 4 {
        %a = affine.load %A[%i, %k] : memref<4x4xi32>
        %b = affine.load %B[%k, %j] : memref<4x4xi32>
        %c = affine.load %C[%i, %j] : memref<4x4xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<4x4xi32>
      }
    }
  }
  return
}
