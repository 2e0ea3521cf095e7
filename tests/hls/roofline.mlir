// The roofline in every report: the kernel's operations over the units
// the device holds (64 i16 products on ecp5-25k's 28 DSPs: 3 cycles)
// and the words each external memory must move over its ports (64 of
// each input on one port: 64 cycles), the larger over the design's
// cycles; with --sim, over the measured cycles. Two ports halve the
// memory bound. No roofline without a device.
// RUN: rm -rf %t.a %t.b %t.g
// RUN: silica hls %s --top dot -o %t.a --sim | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.a/dot.json
// RUN: silica hls %s --top dot -o %t.b --directives %S/directives/roofline.toml | FileCheck %s --check-prefix=PORTS
// RUN: silica hls %s --top dot -o %t.g --target generic | FileCheck %s --check-prefix=GENERIC

// CHECK: latency: [[CYCLES:[0-9]+]] cycles ({{.*}}), measured by co-simulation
// CHECK: roofline: compute 3 cycles (64 mul i16 on 28 unit(s)), memory 64 cycles (64 word(s) of a on 1 port(s) of 1 lane(s)); {{[0-9.]+}}% of the bound reached in [[CYCLES]] cycles

// JSON: "roofline": {
// JSON-NEXT: "compute_cycles": 3,
// JSON-NEXT: "compute": {
// JSON-NEXT: "class": "mul",
// JSON-NEXT: "width": 16,
// JSON-NEXT: "operations": 64,
// JSON-NEXT: "units": 28
// JSON-NEXT: },
// JSON-NEXT: "memory_cycles": 64,
// JSON-NEXT: "memory": {
// JSON-NEXT: "name": "a",
// JSON-NEXT: "words": 64,
// JSON-NEXT: "ports": 1,
// JSON-NEXT: "lanes": 1
// JSON-NEXT: },
// JSON-NEXT: "cycles":
// JSON-NEXT: "fraction": 0.{{[0-9]+}}

// PORTS: roofline: compute 3 cycles (64 mul i16 on 28 unit(s)), memory 64 cycles (64 word(s) of b on 1 port(s) of 1 lane(s))

// GENERIC-NOT: roofline
func.func @dot(%a: memref<64xi16> {hls.name = "a"}, %b: memref<64xi16> {hls.name = "b"}) -> i16 {
  %c0 = arith.constant 0 : i16
  %s = affine.for %i = 0 to 64 iter_args(%acc = %c0) -> i16 {
    %x = affine.load %a[%i] : memref<64xi16>
    %y = affine.load %b[%i] : memref<64xi16>
    %p = arith.muli %x, %y : i16
    %t = arith.addi %acc, %p : i16
    affine.yield %t : i16
  }
  return %s : i16
}
