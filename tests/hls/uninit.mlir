// A load of a local buffer before anything writes it is a warning at the
// load (front/uninit.rs): the element is uninitialised, and the
// co-simulation's software side (a fresh allocation) and the hardware
// may legitimately differ. The design is still written (exit 0). No
// warning where a store may come first: earlier in program order, or
// later in a loop holding the load too (the next iteration reads it),
// or another use (a call, a DMA, a view) that may write the buffer.
// RUN: rm -rf %t.u %t.i
// RUN: silica hls %s --top unread -o %t.u 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: test -e %t.u/unread.sv
// RUN: silica hls %s --top initialised -o %t.i 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not=warning

// WARN: uninit.mlir:[[# @LINE + 9]]:10: warning: this load reads a local buffer before anything writes it: the element is uninitialised (the co-simulation's software and hardware may differ)
// WARN: uninit.mlir:[[# @LINE + 4]]:8: note: the buffer is allocated here
// WARN-NOT: warning:
// WARN: silica hls report: unread
func.func @unread(%a: memref<8xi32>, %o: memref<8xi32>) {
  %t = memref.alloc() {hls.name = "t"} : memref<8xi32>
  %s = memref.alloca() {hls.name = "s"} : memref<8xi32>
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i] : memref<8xi32>
    %y = affine.load %t[%i] : memref<8xi32>
    %z = arith.addi %x, %y : i32
    affine.store %z, %s[%i] : memref<8xi32>
  }
  affine.for %i = 0 to 8 {
    %w = affine.load %s[%i] : memref<8xi32>
    affine.store %w, %t[%i] : memref<8xi32>
    %v = affine.load %t[%i] : memref<8xi32>
    %u = arith.muli %w, %v : i32
    affine.store %u, %o[%i] : memref<8xi32>
  }
  return
}

// OK: silica hls report: initialised
func.func @initialised(%a: memref<8xi32>, %o: memref<8xi32>) {
  %c0 = arith.constant 0 : i32
  %h = memref.alloc() {hls.name = "h"} : memref<8xi32>
  %p = memref.alloc() {hls.name = "p"} : memref<8xi32>
  affine.for %i = 0 to 8 {
    affine.store %c0, %h[%i] : memref<8xi32>
  }
  affine.for %i = 0 to 8 {
    // p[i - 1] is read before p[i] is stored in the body, and was stored
    // by the iteration before.
    affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%i) {
      %q = affine.load %p[%i - 1] : memref<8xi32>
      %x = affine.load %h[%i] : memref<8xi32>
      %y = arith.addi %q, %x : i32
      affine.store %y, %o[%i] : memref<8xi32>
    }
    %x = affine.load %a[%i] : memref<8xi32>
    affine.store %x, %p[%i] : memref<8xi32>
  }
  return
}
