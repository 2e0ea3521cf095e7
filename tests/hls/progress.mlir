// The long stages print as they start, on standard error: plain lines
// when it is not a terminal (here), each with the seconds since the
// command began on a terminal.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top f -o %t.d --target ice40-up5k --clock-ns 50 --bitstream --sim 2>&1 >/dev/null | FileCheck %s
// CHECK: progress: placement 1 of at most 3
// CHECK-NEXT: progress: yosys: synthesis
// CHECK-NEXT: progress: nextpnr: placement and routing
// CHECK-NEXT: progress: packing the bitstream
// CHECK-NEXT: progress: software: lli-22, seed 1
// CHECK-NEXT: progress: Verilator: building the model
// CHECK-NEXT: progress: Verilator: simulating, seed 1
// CHECK-NEXT: progress: silica's simulator: the second opinion
func.func @f(%a: memref<8xi8>, %b: memref<8xi8>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %a[%i] : memref<8xi8>
    %w = arith.addi %v, %v : i8
    affine.store %w, %b[%i] : memref<8xi8>
  }
  return
}
