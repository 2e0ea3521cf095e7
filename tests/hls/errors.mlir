// Bad input: a diagnostic at the offending op or argument, exit 1, and
// nothing written to -o.
// RUN: rm -rf %t.d
// RUN: not silica hls %s --top unsupported -o %t.d 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not silica hls %s --top dynamic -o %t.d 2>&1 | FileCheck %s --check-prefix=DYN
// RUN: not silica hls %s --top strided -o %t.d 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: not silica hls %s --top floats -o %t.d 2>&1 | FileCheck %s --check-prefix=FLOAT
// RUN: not silica hls %s --top nothere -o %t.d 2>&1 | FileCheck %s --check-prefix=TOP
// RUN: not silica hls %s --top unsupported --target xc7 -o %t.d 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not silica hls %s --top recursive -o %t.d 2>&1 | FileCheck %s --check-prefix=REC
// RUN: not silica hls %s --top mutual -o %t.d 2>&1 | FileCheck %s --check-prefix=MUTUAL
// RUN: not silica hls %s --top romstore -o %t.d 2>&1 | FileCheck %s --check-prefix=ROMSTORE
// RUN: not silica hls %s --top mutable -o %t.d 2>&1 | FileCheck %s --check-prefix=MUTABLE
// RUN: not silica hls %s --top declared -o %t.d 2>&1 | FileCheck %s --check-prefix=DECLARED
// RUN: not silica hls %s --top badcallee -o %t.d 2>&1 | FileCheck %s --check-prefix=BADCALLEE
// RUN: not silica hls %s --top wraps -o %t.d 2>&1 | FileCheck %s --check-prefix=WRAPS
// RUN: not silica hls %s --top unsindex -o %t.d 2>&1 | FileCheck %s --check-prefix=UNSINDEX
// RUN: not silica hls %s --top alias -o %t.d 2>&1 | FileCheck %s --check-prefix=KEYWORD
// RUN: test ! -e %t.d

// OP: errors.mlir:[[# @LINE + 2]]:3: error: 'affine.parallel' is not supported by silica hls
func.func @unsupported(%a: memref<4xi32>) {
  affine.parallel (%i) = (0) to (4) {
    %v = affine.load %a[%i] : memref<4xi32>
    affine.store %v, %a[%i] : memref<4xi32>
  }
  return
}

// DYN: errors.mlir:[[# @LINE + 1]]:20: error: memref 'memref<?xi32>' has a dynamic shape; silica hls needs static shapes
func.func @dynamic(%a: memref<?xi32>) {
  return
}

// LAYOUT: error: memref 'memref<4xi32, strided<[2]>>' has a non-identity layout; silica hls needs identity layouts
func.func @strided(%a: memref<4xi32, strided<[2]>>) {
  return
}

// FLOAT: error: memref 'memref<4xf16>' has element type 'f16'; silica hls supports integer and index elements, f32 and f64
func.func @floats(%a: memref<4xf16>) {
  return
}

// TOP: errors.mlir:{{[0-9]+}}:1: error: no function named 'nothere' to synthesize (--top; functions: {{.+}})
// TARGET: error: unknown target 'xc7'; known targets: ecp5-25k, ecp5-45k, ecp5-85k, ice40-up5k, ice40-hx8k, generic

// REC: errors.mlir:[[# @LINE + 2]]:8: error: recursive call of '@recursive' is not supported; silica hls instantiates callees as submodules
func.func @recursive(%n: i32) -> i32 {
  %r = func.call @recursive(%n) : (i32) -> i32
  return %r : i32
}

// MUTUAL: errors.mlir:[[# @LINE + 7]]:8: error: recursive call of '@mutual' is not supported
func.func @mutual(%n: i32) -> i32 {
  %r = func.call @other(%n) : (i32) -> i32
  return %r : i32
}

func.func @other(%n: i32) -> i32 {
  %r = func.call @mutual(%n) : (i32) -> i32
  return %r : i32
}

// ROMSTORE: errors.mlir:[[# @LINE + 4]]:3: error: 'affine.store' into a constant global (a ROM)
memref.global "private" constant @table : memref<4xi32> = dense<[1, 2, 3, 4]>
func.func @romstore(%x: i32) {
  %t = memref.get_global @table : memref<4xi32>
  affine.store %x, %t[0] : memref<4xi32>
  return
}

// MUTABLE: errors.mlir:[[# @LINE + 3]]:8: error: global '@state' is not constant; silica hls builds constant globals as ROMs
memref.global "private" @state : memref<4xi32> = dense<0>
func.func @mutable(%x: i32) {
  %t = memref.get_global @state : memref<4xi32>
  affine.store %x, %t[0] : memref<4xi32>
  return
}

// DECLARED: errors.mlir:[[# @LINE + 3]]:8: error: callee '@external' has no body to synthesize
func.func private @external(i32) -> i32
func.func @declared(%n: i32) -> i32 {
  %r = func.call @external(%n) : (i32) -> i32
  return %r : i32
}

// A callee's own bad input is reported where it is, whichever function is the top.
// BADCALLEE: errors.mlir:[[# @LINE + 1]]:22: error: memref 'memref<?xi32>' has a dynamic shape; silica hls needs static shapes
func.func @dyncallee(%a: memref<?xi32>) {
  return
}
func.func @badcallee(%a: memref<4xi32>) {
  %d = memref.cast %a : memref<4xi32> to memref<?xi32>
  func.call @dyncallee(%d) : (memref<?xi32>) -> ()
  return
}

// An i8 counter going 100, 110, 120 and then past 127, where software
// wraps it around and goes on.
// WRAPS: errors.mlir:[[# @LINE + 6]]:8: error: the counter of this 'scf.for' leaves its 8-bit type after its last iteration (100 + 3 x 10), where software wraps it around; silica hls needs a counter that stays in range
func.func @wraps() -> i32 {
  %l = arith.constant 100 : i8
  %u = arith.constant 127 : i8
  %s = arith.constant 10 : i8
  %z = arith.constant 0 : i32
  %r = scf.for %i = %l to %u step %s iter_args(%acc = %z) -> (i32) : i8 {
    %e = arith.extsi %i : i8 to i32
    %y = arith.addi %acc, %e : i32
    scf.yield %y : i32
  }
  return %r : i32
}

// UNSINDEX: errors.mlir:[[# @LINE + 4]]:3: error: 'scf.for unsigned' over index is supported with non-negative constant bounds only
func.func @unsindex(%a: memref<4xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for unsigned %i = %c0 to %n step %c1 {
    %v = memref.load %a[%c0] : memref<4xi32>
    memref.store %v, %a[%c1] : memref<4xi32>
  }
  return
}

// KEYWORD: errors.mlir:[[# @LINE + 1]]:1: error: the top function's name 'alias' cannot name the Verilog module (a SystemVerilog keyword or not an identifier); rename the function
func.func @alias(%a: memref<4xi32>) {
  return
}
