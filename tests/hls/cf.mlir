// Unstructured control flow lifted to structured loops and conditionals
// (flow/front/structure.rs): a while loop (dot), a loop whose body
// branches three ways to a join with an argument (clamp), a do-while loop
// around a cf.switch (sw), nested loops with early returns (find), each
// co-simulated against the function as written; loops of any other
// shape (a break beside the test, a return from a nest, a continue past
// a test at the bottom) get one exit test first (search, rows, skip),
// checked on seeds that leave early. A cycle entered at two blocks
// (irreducible) runs as a state machine, with a note.
// RUN: rm -rf %t.dot %t.clamp %t.sw %t.find %t.search %t.rows %t.skip %t.cycle %t.lsw %t.lfind %t.lcycle
// RUN: silica hls %s --top dot -o %t.dot --sim | FileCheck %s --check-prefix=DOT
// RUN: silica hls %s --top clamp -o %t.clamp --sim | FileCheck %s --check-prefix=CLAMP
// RUN: silica hls %s --top sw -o %t.sw --sim | FileCheck %s --check-prefix=SW
// RUN: silica hls %s --top find -o %t.find --sim | FileCheck %s --check-prefix=FIND
// RUN: silica hls %s --top find -o %t.find --sim --seed 7 | FileCheck %s --check-prefix=FIND7
// RUN: silica hls %s --top search -o %t.search --sim --seed 1 | FileCheck %s --check-prefix=SEARCH1
// RUN: silica hls %s --top search -o %t.search --sim --seed 3 | FileCheck %s --check-prefix=SEARCH3
// RUN: silica hls %s --top rows -o %t.rows --sim --seed 1 | FileCheck %s --check-prefix=ROWS1
// RUN: silica hls %s --top rows -o %t.rows --sim --seed 3 | FileCheck %s --check-prefix=ROWS3
// RUN: silica hls %s --top skip -o %t.skip --sim | FileCheck %s --check-prefix=SKIP
// RUN: silica hls %s --top cycle -o %t.cycle --sim --seed 1 2>&1 | FileCheck %s --check-prefix=CYCLE
// RUN: silica hls %s --top cycle -o %t.cycle --sim --seed 3 2>&1 | FileCheck %s --check-prefix=CYCLE3
// mlir-opt-22's lifting leaves ub.poison and scf.index_switch: accepted too.
// RUN: mlir-opt-22 --lift-cf-to-scf %s -o %t.lifted.mlir
// RUN: FileCheck %s --check-prefix=LIFTED < %t.lifted.mlir
// RUN: silica hls %t.lifted.mlir --top sw -o %t.lsw --sim | FileCheck %s --check-prefix=SW
// RUN: silica hls %t.lifted.mlir --top find -o %t.lfind --sim | FileCheck %s --check-prefix=FIND
// RUN: silica hls %t.lifted.mlir --top cycle -o %t.lcycle --sim | FileCheck %s --check-prefix=LCYCLE

// A loop that counts becomes an scf.for, pipelined like its affine twin.
// DOT: co-simulation (seed 1): 33 values match, latency 18 cycles
// DOT: dot/0: trip 16, pipelined, II 1
// CLAMP: co-simulation (seed 1): 32 values match
// SW: co-simulation (seed 1): 16 values match
// FIND: co-simulation (seed 1): 17 values match
// FIND7: co-simulation (seed 7): 17 values match
// The search leaves at the first negative element: early on seed 3.
// SEARCH1: co-simulation (seed 1): 9 values match, latency 10 cycles
// SEARCH3: co-simulation (seed 3): 9 values match, latency 4 cycles
// ROWS1: co-simulation (seed 1): 18 values match, latency 17 cycles
// ROWS3: co-simulation (seed 3): 18 values match, latency 10 cycles
// SKIP: co-simulation (seed 1): 16 values match
// LCYCLE: co-simulation (seed 1): 4 values match
// LIFTED: scf.index_switch
// LIFTED: ub.poison

func.func @dot(%a: memref<16xi32>, %b: memref<16xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %z = arith.constant 0 : i32
  cf.br ^bb1(%c0, %z : index, i32)
^bb1(%i: index, %acc: i32):
  %cond = arith.cmpi slt, %i, %c16 : index
  cf.cond_br %cond, ^bb2, ^bb3
^bb2:
  %x = memref.load %a[%i] : memref<16xi32>
  %y = memref.load %b[%i] : memref<16xi32>
  %p = arith.muli %x, %y : i32
  %s = arith.addi %acc, %p : i32
  %next = arith.addi %i, %c1 : index
  cf.br ^bb1(%next, %s : index, i32)
^bb3:
  return %acc : i32
}

func.func @clamp(%a: memref<16xi32>, %out: memref<16xi32>, %lo: i32, %hi: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  cf.br ^head(%c0 : index)
^head(%i: index):
  %more = arith.cmpi ult, %i, %c16 : index
  cf.cond_br %more, ^body, ^done
^body:
  %x = memref.load %a[%i] : memref<16xi32>
  %small = arith.cmpi slt, %x, %lo : i32
  cf.cond_br %small, ^low, ^check
^low:
  cf.br ^store(%lo : i32)
^check:
  %big = arith.cmpi sgt, %x, %hi : i32
  cf.cond_br %big, ^high, ^store(%x : i32)
^high:
  cf.br ^store(%hi : i32)
^store(%v: i32):
  memref.store %v, %out[%i] : memref<16xi32>
  %n = arith.addi %i, %c1 : index
  cf.br ^head(%n : index)
^done:
  return
}

// A do-while loop (the test at the bottom) with a switch in its body.
func.func @sw(%a: memref<8xi32>, %out: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c3 = arith.constant 3 : i32
  cf.br ^body(%c0 : index)
^body(%i: index):
  %x = memref.load %a[%i] : memref<8xi32>
  %k = arith.remui %x, %c3 : i32
  cf.switch %k : i32, [
    default: ^other,
    0: ^zero,
    1: ^one(%x : i32)
  ]
^zero:
  cf.br ^join(%c3 : i32)
^one(%y: i32):
  %d = arith.addi %y, %y : i32
  cf.br ^join(%d : i32)
^other:
  cf.br ^join(%x : i32)
^join(%v: i32):
  memref.store %v, %out[%i] : memref<8xi32>
  %n = arith.addi %i, %c1 : index
  %more = arith.cmpi ult, %n, %c8 : index
  cf.cond_br %more, ^body(%n : index), ^exit
^exit:
  return
}

// Early returns and a nested loop.
func.func @find(%a: memref<4x4xi32>, %key: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i32
  cf.br ^outer(%c0, %z : index, i32)
^outer(%i: index, %count: i32):
  %oc = arith.cmpi slt, %i, %c4 : index
  cf.cond_br %oc, ^inner_init, ^end
^inner_init:
  cf.br ^inner(%c0, %count : index, i32)
^inner(%j: index, %cnt: i32):
  %ic = arith.cmpi slt, %j, %c4 : index
  cf.cond_br %ic, ^ibody, ^onext
^ibody:
  %v = memref.load %a[%i, %j] : memref<4x4xi32>
  %eq = arith.cmpi eq, %v, %key : i32
  %one = arith.extui %eq : i1 to i32
  %cnt2 = arith.addi %cnt, %one : i32
  %j2 = arith.addi %j, %c1 : index
  cf.br ^inner(%j2, %cnt2 : index, i32)
^onext:
  %i2 = arith.addi %i, %c1 : index
  cf.br ^outer(%i2, %cnt : index, i32)
^end:
  %none = arith.cmpi eq, %count, %z : i32
  cf.cond_br %none, ^missing, ^found
^missing:
  %m1 = arith.constant -1 : i32
  return %m1 : i32
^found:
  return %count : i32
}

// The first negative element's index, or 8.
func.func @search(%a: memref<8xi32>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0 : i32
  cf.br ^head(%c0 : index)
^head(%i: index):
  %more = arith.cmpi ult, %i, %c8 : index
  cf.cond_br %more, ^body, ^exit(%i : index)
^body:
  %v = memref.load %a[%i] : memref<8xi32>
  %neg = arith.cmpi slt, %v, %z : i32
  %n = arith.addi %i, %c1 : index
  cf.cond_br %neg, ^exit(%i : index), ^head(%n : index)
^exit(%r: index):
  return %r : index
}

// Sums rows until a row's sum is negative: returns from inside the nest
// with the partial sum; a value of the loop (%s) used after it.
func.func @rows(%a: memref<4x4xi8>, %out: memref<1xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i32
  cf.br ^outer(%c0, %z : index, i32)
^outer(%i: index, %total: i32):
  %oc = arith.cmpi slt, %i, %c4 : index
  cf.cond_br %oc, ^init, ^done
^init:
  cf.br ^inner(%c0, %z : index, i32)
^inner(%j: index, %row: i32):
  %ic = arith.cmpi slt, %j, %c4 : index
  cf.cond_br %ic, ^ibody, ^rowdone
^ibody:
  %v = memref.load %a[%i, %j] : memref<4x4xi8>
  %w = arith.extsi %v : i8 to i32
  %row2 = arith.addi %row, %w : i32
  %j2 = arith.addi %j, %c1 : index
  cf.br ^inner(%j2, %row2 : index, i32)
^rowdone:
  %s = arith.addi %total, %row : i32
  %bad = arith.cmpi slt, %row, %z : i32
  %i2 = arith.addi %i, %c1 : index
  cf.cond_br %bad, ^early, ^outer(%i2, %s : index, i32)
^early:
  memref.store %s, %out[%c0] : memref<1xi32>
  %m = arith.muli %s, %s : i32
  return %m : i32
^done:
  memref.store %total, %out[%c0] : memref<1xi32>
  return %total : i32
}

// A do-while loop with a continue: odd elements are skipped, the test is
// at the bottom.
func.func @skip(%a: memref<8xi32>, %b: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1 : i32
  cf.br ^body(%c0 : index)
^body(%i: index):
  %v = memref.load %a[%i] : memref<8xi32>
  %n = arith.addi %i, %c1 : index
  %odd = arith.andi %v, %one : i32
  %is = arith.cmpi ne, %odd, %one : i32
  cf.cond_br %is, ^work, ^body2(%n : index)
^body2(%k: index):
  %more2 = arith.cmpi ult, %k, %c8 : index
  cf.cond_br %more2, ^body(%k : index), ^exit
^work:
  %d = arith.addi %v, %v : i32
  memref.store %d, %b[%i] : memref<8xi32>
  %more = arith.cmpi ult, %n, %c8 : index
  cf.cond_br %more, ^body(%n : index), ^exit
^exit:
  return
}

// CYCLE: co-simulation (seed 1): 4 values match
// CYCLE: note: 'cycle': its control flow does not nest into loops and conditionals: it runs as a state machine, a block a step
// CYCLE3: co-simulation (seed 3): 4 values match
func.func @cycle(%a: memref<4xi32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  cf.cond_br %c, ^left, ^right
^left:
  %v = memref.load %a[%c0] : memref<4xi32>
  %neg = arith.cmpi slt, %v, %z : i32
  cf.cond_br %neg, ^right, ^out
^right:
  memref.store %z, %a[%c0] : memref<4xi32>
  cf.br ^left
^out:
  return
}
