// The front's transforms as `silica opt` passes: `hls-directives` writes
// the directives file's settings as `hls.*` attributes, each
// `hls-<step>` pass reads them, and the IR `silica hls --dump-after`
// prints after a step is the one the same pipeline of passes gives.
// RUN: rm -rf %t.d %t.e
// RUN: silica opt %s -p 'builtin.module(hls-directives{file=%S/directives/front-passes.toml top=f})' | FileCheck %s --check-prefix=ATTRS
// RUN: silica opt %s -p 'builtin.module(hls-directives{file=%S/directives/front-passes.toml top=f},func.func(hls-unroll))' | FileCheck %s --check-prefix=UNROLL
// RUN: silica opt %s -p 'builtin.module(hls-directives{file=%S/directives/front-passes.toml top=f},func.func(hls-buffer,hls-unroll,hls-reuse,hls-line-buffer,hls-fuse,hls-hoist,hls-promote,hls-carry))' > %t.opt
// RUN: silica hls %s --top f -o %t.d --directives %S/directives/front-passes.toml --dump-after=carry 2> %t.dump
// RUN: head -n 1 %t.dump | FileCheck %s --check-prefix=HEADER
// RUN: tail -n +2 %t.dump | diff - %t.opt
// RUN: silica hls %s --top f -o %t.e --dump-after=schedule 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// RUN: not silica hls %s --top f -o %t.e --dump-after=lift 2>&1 | FileCheck %s --check-prefix=STAGE
// RUN: not silica opt %s -p 'builtin.module(hls-directives)' 2>&1 | FileCheck %s --check-prefix=OPTIONS
// RUN: silica opt %S/promote.mlir -p 'builtin.module(func.func(hls-promote))' 2>&1 > /dev/null | FileCheck %s --check-prefix=REMARK
// RUN: echo 'func.func @g(%a: memref<8xindex>) { affine.for %i = 0 to 5000 { affine.store %i, %a[0] : memref<8xindex> } {hls.unroll = "full"} return }' | silica opt - -p 'builtin.module(func.func(hls-unroll))' 2>&1 | FileCheck %s --check-prefix=REFUSED

// ATTRS: func.func @f(%arg0: memref<16xi32> {hls.name = "a", hls.ports = 2 : i64}
// ATTRS-SAME: attributes {hls.limits = {mul = 1 : i64}}
// ATTRS: affine.for
// ATTRS: } {hls.label = "i", hls.pipeline = 2 : i64, hls.unroll = 2 : i64}

// UNROLL: affine.for %{{.*}} = 0 to 16 step 2 {
// UNROLL-COUNT-2: affine.load
// UNROLL: } {hls.label = "i", hls.pipeline = 2 : i64, hls.unroll = 2 : i64}

// HEADER: // -----// Dump After carry //----- //

// SCHEDULE: schedule of f
// SCHEDULE-NEXT: loop f/i: pipelined, II 1 (ResMII 1, RecMII 1, MII 1), depth
// SCHEDULE-NEXT: 0: load#

// STAGE: invalid value 'lift' for '--dump-after <STAGE>': one of buffer, unroll, reuse, line-buffer, fuse, hoist, promote, carry, schedule, construct

// OPTIONS: hls-directives needs its 'file' and 'top' options

// REMARK: promote.mlir:{{[0-9]+}}:1: remark: read-modify-writes of loop-invariant elements held in registers (scalar promotion): gesummv/i/j: 2 element(s)

// REFUSED: warning: unroll full on g/0 is not honoured: it would make 5000 copies of the body
func.func @f(%a: memref<16xi32> {hls.name = "a"}, %b: memref<16xi32> {hls.name = "b"}, %s: i32) {
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xi32>
    %y = arith.muli %x, %s : i32
    affine.store %y, %b[%i] : memref<16xi32>
  } {hls.label = "i"}
  return
}
