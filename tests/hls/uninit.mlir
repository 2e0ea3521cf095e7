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
// RUN: silica hls %s --top writers -o %t.w 2>&1 | FileCheck %s --check-prefix=WRITERS --implicit-check-not=warning
// RUN: silica hls %s --top late_writers -o %t.l 2>&1 | FileCheck %s --check-prefix=LATE
// RUN: silica hls %s --top branches -o %t.b 2>&1 | FileCheck %s --check-prefix=BRANCHES
// RUN: silica hls %s --top whiles -o %t.wh 2>&1 | FileCheck %s --check-prefix=WHILES

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

// Uses that may write a buffer before its load, in program order: a call
// passed the buffer, a DMA into it (waited for), an scf.while storing
// into it, an scf.if whose one branch stores into it. No warning.
// WRITERS: silica hls report: writers
func.func @fill(%b: memref<8xi32>, %k: i32) {
  affine.for %i = 0 to 8 {
    affine.store %k, %b[%i] : memref<8xi32>
  }
  return
}

func.func @writers(%a: memref<8xi32>, %o: memref<8xi32>, %k: i32, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1 : i32
  %called = memref.alloc() {hls.name = "called"} : memref<8xi32>
  %copied = memref.alloc() {hls.name = "copied"} : memref<8xi32, 1>
  %tag = memref.alloc() : memref<1xi32>
  %looped = memref.alloc() {hls.name = "looped"} : memref<8xi32>
  %maybe = memref.alloc() {hls.name = "maybe"} : memref<8xi32>
  func.call @fill(%called, %k) : (memref<8xi32>, i32) -> ()
  affine.dma_start %a[%c0], %copied[%c0], %tag[%c0], %c8 : memref<8xi32>, memref<8xi32, 1>, memref<1xi32>
  affine.dma_wait %tag[%c0], %c8 : memref<1xi32>
  %n = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi ult, %i, %c8 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%i: index):
    memref.store %k, %looped[%i] : memref<8xi32>
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  scf.if %c {
    affine.for %i = 0 to 8 {
      affine.store %one, %maybe[%i] : memref<8xi32>
    }
  }
  affine.for %i = 0 to 8 {
    %x = affine.load %called[%i] : memref<8xi32>
    %y = affine.load %copied[%i] : memref<8xi32, 1>
    %z = affine.load %looped[%i] : memref<8xi32>
    %w = affine.load %maybe[%i] : memref<8xi32>
    %s = arith.addi %x, %y : i32
    %t = arith.addi %z, %w : i32
    %u = arith.addi %s, %t : i32
    affine.store %u, %o[%i] : memref<8xi32>
  }
  return
}

// The same writers after the load, outside any loop holding it: the
// load reads the buffer before them. One warning per buffer.
// LATE: uninit.mlir:[[# @LINE + 13]]:10: warning: this load reads a local buffer
// LATE: uninit.mlir:[[# @LINE + 8]]:13: note: the buffer is allocated here
// LATE: uninit.mlir:[[# @LINE + 12]]:10: warning: this load reads a local buffer
// LATE: uninit.mlir:[[# @LINE + 7]]:13: note: the buffer is allocated here
// LATE-NOT: warning:
// LATE: silica hls report: late_writers
func.func @late_writers(%a: memref<8xi32>, %o: memref<8xi32>, %k: i32) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %called = memref.alloc() {hls.name = "called"} : memref<8xi32>
  %copied = memref.alloc() {hls.name = "copied"} : memref<8xi32, 1>
  %tag = memref.alloc() : memref<1xi32>
  affine.for %i = 0 to 8 {
    %x = affine.load %called[%i] : memref<8xi32>
    %y = affine.load %copied[%i] : memref<8xi32, 1>
    %s = arith.addi %x, %y : i32
    affine.store %s, %o[%i] : memref<8xi32>
  }
  func.call @fill(%called, %k) : (memref<8xi32>, i32) -> ()
  affine.dma_start %a[%c0], %copied[%c0], %tag[%c0], %c8 : memref<8xi32>, memref<8xi32, 1>, memref<1xi32>
  affine.dma_wait %tag[%c0], %c8 : memref<1xi32>
  return
}

// if/else: a load in one branch and the store in the other, outside a
// loop: when the load's branch runs, nothing has written the buffer (a
// warning); in a loop, an earlier iteration may have taken the other
// branch (none).
// BRANCHES: uninit.mlir:[[# @LINE + 9]]:10: warning: this load reads a local buffer
// BRANCHES: uninit.mlir:[[# @LINE + 5]]:11: note: the buffer is allocated here
// BRANCHES-NOT: warning:
// BRANCHES: silica hls report: branches
func.func @branches(%a: memref<8xi32>, %o: memref<8xi32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %once = memref.alloc() {hls.name = "once"} : memref<8xi32>
  %again = memref.alloc() {hls.name = "again"} : memref<8xi32>
  scf.if %c {
    %x = memref.load %once[%c0] : memref<8xi32>
    memref.store %x, %o[%c0] : memref<8xi32>
  } else {
    %x = memref.load %a[%c0] : memref<8xi32>
    memref.store %x, %once[%c0] : memref<8xi32>
  }
  affine.for %i = 0 to 8 {
    scf.if %c {
      %x = affine.load %again[%i] : memref<8xi32>
      affine.store %x, %o[%i] : memref<8xi32>
    } else {
      %x = affine.load %a[%i] : memref<8xi32>
      affine.store %x, %again[%i] : memref<8xi32>
    }
  }
  return
}

// scf.while: a load in the condition region and a store in the body (the
// next iteration reads it: none); a load in a loop before the only store,
// which a later scf.while makes (a warning).
// WHILES: uninit.mlir:[[# @LINE + 22]]:10: warning: this load reads a local buffer
// WHILES: uninit.mlir:[[# @LINE + 8]]:12: note: the buffer is allocated here
// WHILES-NOT: warning:
// WHILES: silica hls report: whiles
func.func @whiles(%a: memref<8xi32>, %o: memref<8xi32>, %k: i32) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %carried = memref.alloc() {hls.name = "carried"} : memref<8xi32>
  %later = memref.alloc() {hls.name = "later"} : memref<8xi32>
  %n = scf.while (%i = %c0) : (index) -> index {
    %x = memref.load %carried[%i] : memref<8xi32>
    %z = arith.constant 0 : i32
    %more = arith.cmpi ne, %x, %z : i32
    scf.condition(%more) %i : index
  } do {
  ^bb0(%i: index):
    memref.store %k, %carried[%i] : memref<8xi32>
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  affine.for %i = 0 to 8 {
    %x = affine.load %later[%i] : memref<8xi32>
    affine.store %x, %o[%i] : memref<8xi32>
  }
  %m = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi ult, %i, %c8 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%i: index):
    memref.store %k, %later[%i] : memref<8xi32>
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  %r = arith.addi %n, %m : index
  return %r : index
}
