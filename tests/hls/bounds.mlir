// Affine accesses the affine layer proves out of bounds are errors at the
// op (flow/front/bounds.rs), with the element and the loop counters that
// reach it; nothing is written. An access that stays in bounds (fine)
// builds as before.
// RUN: rm -rf %t.past %t.tri %t.below %t.fine
// RUN: not silica hls %s --top past -o %t.past 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: test ! -e %t.past
// RUN: not silica hls %s --top triangle -o %t.tri 2>&1 | FileCheck %s --check-prefix=TRI
// RUN: not silica hls %s --top below -o %t.below 2>&1 | FileCheck %s --check-prefix=BELOW
// RUN: silica hls %s --top fine -o %t.fine --sim | FileCheck %s --check-prefix=FINE
// RUN: not silica hls %s --top stride -o %t.stride 2>&1 | FileCheck %s --check-prefix=STRIDE
// An address computed from the data cannot be proven: a note, and the
// co-simulation's software run checks each such access, stopping at the
// first past its memref with the op's place and the index; the hardware
// then runs on the same inputs, and the error says in which cycle its
// port addressed past the memory, or that the port wrapped the index.
// RUN: silica hls %s --top lookup -o %t.lookup | FileCheck %s --check-prefix=NOTE
// RUN: silica hls %s --top lookup -o %t.lookup --sim --sim-scalar arg2=5 | FileCheck %s --check-prefix=INSIDE
// RUN: not silica hls %s --top lookup -o %t.lookup --sim --sim-scalar arg2=13 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: not silica hls %s --top lookup -o %t.lookup --sim --sim-scalar arg2=17 2>&1 | FileCheck %s --check-prefix=WRAPPED

// NOTE: note: {{.*}}bounds.mlir:[[@LINE+8]]:8: 'memref.load' at an address computed from the data cannot be proven within its memref: co-simulation checks it at run time
// INSIDE: co-simulation (seed 1): 13 values match
// RUNTIME: error: co-simulation, software side: {{.*}}bounds.mlir:[[@LINE+6]]:8: 'memref.load' index 0 is past its memref's dimension of 12: the run stopped there
// RUNTIME-NEXT: hardware side, on the same inputs: cycle {{[0-9]+}}: arg0_address0 = 13 is past the last word (12 words)
// WRAPPED: error: co-simulation, software side: {{.*}}bounds.mlir:[[@LINE+4]]:8: 'memref.load' index 0
// WRAPPED-NEXT: hardware side, on the same inputs: done after {{[0-9]+}} cycles with no address past a memory: the address ports wrap such an index onto another element
func.func @lookup(%t: memref<12xi32>, %o: memref<1xi32>, %s: i32) {
  %j = arith.index_cast %s : i32 to index
  %v = memref.load %t[%j] : memref<12xi32>
  affine.store %v, %o[0] : memref<1xi32>
  return
}

// PAST: bounds.mlir:[[@LINE+3]]:10: error: 'affine.load' reads element [8] of a memref<8xi32>, out of bounds of dimension 1 (size 8) (the enclosing loops' counters at 8)
func.func @past(%a: memref<8xi32>, %b: memref<8xi32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %a[%i] : memref<8xi32>
    affine.store %v, %b[%i] : memref<8xi32>
  }
  return
}

// TRI: bounds.mlir:[[@LINE+5]]:7: error: 'affine.store' writes element [7, 8] of a memref<8x8xi32>, out of bounds of dimension 2 (size 8) (the enclosing loops' counters at 7, 7)
func.func @triangle(%a: memref<8x8xi32>) {
  %c = arith.constant 1 : i32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      affine.store %c, %a[%i, %j + 1] : memref<8x8xi32>
    }
  }
  return
}

// BELOW: bounds.mlir:[[@LINE+3]]:10: error: 'affine.load' reads element [-1] of a memref<8xi32>, out of bounds of dimension 1 (size 8) (the enclosing loops' counters at 0)
func.func @below(%a: memref<8xi32>, %b: memref<8xi32>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %a[%i - 1] : memref<8xi32>
    affine.store %v, %b[%i] : memref<8xi32>
  }
  return
}

// FINE: co-simulation (seed 1): {{[0-9]+}} values match
func.func @fine(%a: memref<8xi32>, %b: memref<8xi32>) {
  affine.for %i = 1 to 8 {
    %v = affine.load %a[%i - 1] : memref<8xi32>
    affine.store %v, %b[%i] : memref<8xi32>
  }
  // Counters of step 2 stop at 6: element 7 is the last read.
  affine.for %i = 0 to 8 step 2 {
    %v = affine.load %a[%i + 1] : memref<8xi32>
    affine.store %v, %b[%i] : memref<8xi32>
  }
  return
}

// Counters of step 3 reach 6: element 8 is past.
// STRIDE: bounds.mlir:[[# @LINE + 3]]:10: error: 'affine.load' reads element [8] of a memref<8xi32>, out of bounds of dimension 1 (size 8) (the enclosing loops' counters at 6)
func.func @stride(%a: memref<8xi32>, %b: memref<8xi32>) {
  affine.for %i = 0 to 8 step 3 {
    %v = affine.load %a[%i + 2] : memref<8xi32>
    affine.store %v, %b[%i] : memref<8xi32>
  }
  return
}
