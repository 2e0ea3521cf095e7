// Random control flow between blocks (a fuel counter bounds every run),
// as a differential generator wrote it: blocks branch to arbitrary
// blocks, so the graph is often irreducible. The first two once made the
// structurizer take a block twice (now a state machine, with a note);
// the third lifts to loops. Each co-simulated on two seeds.
// RUN: rm -rf %t.1 %t.2 %t.3
// RUN: silica hls %s --top first -o %t.1 --sim --seed 1 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: silica hls %s --top first -o %t.1 --sim --seed 2 2>&1 | FileCheck %s --check-prefix=MATCH
// RUN: silica hls %s --top second -o %t.2 --sim --seed 1 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: silica hls %s --top second -o %t.2 --sim --seed 2 2>&1 | FileCheck %s --check-prefix=MATCH
// RUN: silica hls %s --top third -o %t.3 --sim --seed 1 2>&1 | FileCheck %s --check-prefix=MATCH
// RUN: silica hls %s --top third -o %t.3 --sim --seed 2 2>&1 | FileCheck %s --check-prefix=MATCH

// FIRST: values match
// FIRST: note: 'first': its control flow does not nest into loops and conditionals: it runs as a state machine
// SECOND: values match
// SECOND: note: 'second': its control flow does not nest
// MATCH: co-simulation (seed {{[12]}}): 17 values match

func.func @first(%a: memref<8xi32>, %o: memref<8xi32>, %fuel0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %cf = arith.constant 40 : i32
  %f0 = arith.andi %fuel0, %c7 : i32
  %fuel = arith.addi %f0, %cf : i32
  cf.br ^b1(%fuel, %c1, %c7 : i32, i32, i32)
^b1(%f1: i32, %x1: i32, %y1: i32):
  %v1i = arith.andi %x1, %c7 : i32
  %v1ix = arith.index_cast %v1i : i32 to index
  %v1l = memref.load %a[%v1ix] : memref<8xi32>
  %v1x = arith.addi %x1, %v1l : i32
  %v1y = arith.addi %y1, %v1x : i32
  %v1f = arith.subi %f1, %c1 : i32
  %v1done = arith.cmpi sle, %v1f, %c0 : i32
  cf.cond_br %v1done, ^exit(%v1x : i32), ^d1
^d1:
  %v1m = arith.andi %v1y, %c1 : i32
  %v1c = arith.cmpi eq, %v1m, %c0 : i32
  cf.cond_br %v1c, ^b5(%v1f, %v1x, %v1y : i32, i32, i32), ^b3(%v1f, %v1y, %v1x : i32, i32, i32)
^b2(%f2: i32, %x2: i32, %y2: i32):
  %v2i = arith.andi %x2, %c7 : i32
  %v2ix = arith.index_cast %v2i : i32 to index
  %v2l = memref.load %a[%v2ix] : memref<8xi32>
  %v2x = arith.subi %x2, %v2l : i32
  %v2y = arith.xori %y2, %v2x : i32
  %v2j = arith.andi %y2, %c7 : i32
  %v2jx = arith.index_cast %v2j : i32 to index
  memref.store %v2x, %o[%v2jx] : memref<8xi32>
  %v2f = arith.subi %f2, %c1 : i32
  %v2done = arith.cmpi sle, %v2f, %c0 : i32
  cf.cond_br %v2done, ^exit(%v2x : i32), ^d2
^d2:
  %v2m = arith.andi %v2y, %c1 : i32
  %v2c = arith.cmpi eq, %v2m, %c0 : i32
  cf.cond_br %v2c, ^b3(%v2f, %v2x, %v2y : i32, i32, i32), ^b7(%v2f, %v2y, %v2x : i32, i32, i32)
^b3(%f3: i32, %x3: i32, %y3: i32):
  %v3i = arith.andi %x3, %c7 : i32
  %v3ix = arith.index_cast %v3i : i32 to index
  %v3l = memref.load %a[%v3ix] : memref<8xi32>
  %v3x = arith.addi %x3, %v3l : i32
  %v3y = arith.xori %y3, %v3x : i32
  %v3f = arith.subi %f3, %c1 : i32
  %v3done = arith.cmpi sle, %v3f, %c0 : i32
  cf.cond_br %v3done, ^exit(%v3x : i32), ^d3
^d3:
  cf.br ^b5(%v3f, %v3x, %v3y : i32, i32, i32)
^b4(%f4: i32, %x4: i32, %y4: i32):
  %v4i = arith.andi %x4, %c7 : i32
  %v4ix = arith.index_cast %v4i : i32 to index
  %v4l = memref.load %a[%v4ix] : memref<8xi32>
  %v4x = arith.addi %x4, %v4l : i32
  %v4y = arith.subi %y4, %v4x : i32
  %v4j = arith.andi %y4, %c7 : i32
  %v4jx = arith.index_cast %v4j : i32 to index
  memref.store %v4x, %o[%v4jx] : memref<8xi32>
  %v4f = arith.subi %f4, %c1 : i32
  %v4done = arith.cmpi sle, %v4f, %c0 : i32
  cf.cond_br %v4done, ^exit(%v4x : i32), ^d4
^d4:
  %v4m = arith.andi %v4y, %c1 : i32
  %v4c = arith.cmpi eq, %v4m, %c0 : i32
  cf.cond_br %v4c, ^b7(%v4f, %v4x, %v4y : i32, i32, i32), ^b6(%v4f, %v4y, %v4x : i32, i32, i32)
^b5(%f5: i32, %x5: i32, %y5: i32):
  %v5i = arith.andi %x5, %c7 : i32
  %v5ix = arith.index_cast %v5i : i32 to index
  %v5l = memref.load %a[%v5ix] : memref<8xi32>
  %v5x = arith.addi %x5, %v5l : i32
  %v5y = arith.addi %y5, %v5x : i32
  %v5j = arith.andi %y5, %c7 : i32
  %v5jx = arith.index_cast %v5j : i32 to index
  memref.store %v5x, %o[%v5jx] : memref<8xi32>
  %v5f = arith.subi %f5, %c1 : i32
  %v5done = arith.cmpi sle, %v5f, %c0 : i32
  cf.cond_br %v5done, ^exit(%v5x : i32), ^d5
^d5:
  cf.br ^b6(%v5f, %v5x, %v5y : i32, i32, i32)
^b6(%f6: i32, %x6: i32, %y6: i32):
  %v6i = arith.andi %x6, %c7 : i32
  %v6ix = arith.index_cast %v6i : i32 to index
  %v6l = memref.load %a[%v6ix] : memref<8xi32>
  %v6x = arith.muli %x6, %v6l : i32
  %v6y = arith.muli %y6, %v6x : i32
  %v6f = arith.subi %f6, %c1 : i32
  %v6done = arith.cmpi sle, %v6f, %c0 : i32
  cf.cond_br %v6done, ^exit(%v6x : i32), ^d6
^d6:
  %v6e = arith.cmpi sgt, %v6y, %v6x : i32
  cf.cond_br %v6e, ^exit(%v6y : i32), ^b5(%v6f, %v6x, %v6y : i32, i32, i32)
^b7(%f7: i32, %x7: i32, %y7: i32):
  %v7i = arith.andi %x7, %c7 : i32
  %v7ix = arith.index_cast %v7i : i32 to index
  %v7l = memref.load %a[%v7ix] : memref<8xi32>
  %v7x = arith.subi %x7, %v7l : i32
  %v7y = arith.muli %y7, %v7x : i32
  %v7j = arith.andi %y7, %c7 : i32
  %v7jx = arith.index_cast %v7j : i32 to index
  memref.store %v7x, %o[%v7jx] : memref<8xi32>
  %v7f = arith.subi %f7, %c1 : i32
  %v7done = arith.cmpi sle, %v7f, %c0 : i32
  cf.cond_br %v7done, ^exit(%v7x : i32), ^d7
^d7:
  %v7m = arith.andi %v7y, %c1 : i32
  %v7c = arith.cmpi eq, %v7m, %c0 : i32
  cf.cond_br %v7c, ^b6(%v7f, %v7x, %v7y : i32, i32, i32), ^b1(%v7f, %v7y, %v7x : i32, i32, i32)
^exit(%r: i32):
  return %r : i32
}

func.func @second(%a: memref<8xi32>, %o: memref<8xi32>, %fuel0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %cf = arith.constant 40 : i32
  %f0 = arith.andi %fuel0, %c7 : i32
  %fuel = arith.addi %f0, %cf : i32
  cf.br ^b1(%fuel, %c1, %c7 : i32, i32, i32)
^b1(%f1: i32, %x1: i32, %y1: i32):
  %v1i = arith.andi %x1, %c7 : i32
  %v1ix = arith.index_cast %v1i : i32 to index
  %v1l = memref.load %a[%v1ix] : memref<8xi32>
  %v1x = arith.subi %x1, %v1l : i32
  %v1y = arith.subi %y1, %v1x : i32
  %v1j = arith.andi %y1, %c7 : i32
  %v1jx = arith.index_cast %v1j : i32 to index
  memref.store %v1x, %o[%v1jx] : memref<8xi32>
  %v1f = arith.subi %f1, %c1 : i32
  %v1done = arith.cmpi sle, %v1f, %c0 : i32
  cf.cond_br %v1done, ^exit(%v1x : i32), ^d1
^d1:
  %v1m = arith.andi %v1y, %c1 : i32
  %v1c = arith.cmpi eq, %v1m, %c0 : i32
  cf.cond_br %v1c, ^b2(%v1f, %v1x, %v1y : i32, i32, i32), ^b7(%v1f, %v1y, %v1x : i32, i32, i32)
^b2(%f2: i32, %x2: i32, %y2: i32):
  %v2i = arith.andi %x2, %c7 : i32
  %v2ix = arith.index_cast %v2i : i32 to index
  %v2l = memref.load %a[%v2ix] : memref<8xi32>
  %v2x = arith.muli %x2, %v2l : i32
  %v2y = arith.addi %y2, %v2x : i32
  %v2f = arith.subi %f2, %c1 : i32
  %v2done = arith.cmpi sle, %v2f, %c0 : i32
  cf.cond_br %v2done, ^exit(%v2x : i32), ^d2
^d2:
  %v2m = arith.andi %v2y, %c1 : i32
  %v2c = arith.cmpi eq, %v2m, %c0 : i32
  cf.cond_br %v2c, ^b2(%v2f, %v2x, %v2y : i32, i32, i32), ^b6(%v2f, %v2y, %v2x : i32, i32, i32)
^b3(%f3: i32, %x3: i32, %y3: i32):
  %v3i = arith.andi %x3, %c7 : i32
  %v3ix = arith.index_cast %v3i : i32 to index
  %v3l = memref.load %a[%v3ix] : memref<8xi32>
  %v3x = arith.muli %x3, %v3l : i32
  %v3y = arith.subi %y3, %v3x : i32
  %v3f = arith.subi %f3, %c1 : i32
  %v3done = arith.cmpi sle, %v3f, %c0 : i32
  cf.cond_br %v3done, ^exit(%v3x : i32), ^d3
^d3:
  %v3m = arith.andi %v3y, %c1 : i32
  %v3c = arith.cmpi eq, %v3m, %c0 : i32
  cf.cond_br %v3c, ^b7(%v3f, %v3x, %v3y : i32, i32, i32), ^b2(%v3f, %v3y, %v3x : i32, i32, i32)
^b4(%f4: i32, %x4: i32, %y4: i32):
  %v4i = arith.andi %x4, %c7 : i32
  %v4ix = arith.index_cast %v4i : i32 to index
  %v4l = memref.load %a[%v4ix] : memref<8xi32>
  %v4x = arith.addi %x4, %v4l : i32
  %v4y = arith.subi %y4, %v4x : i32
  %v4j = arith.andi %y4, %c7 : i32
  %v4jx = arith.index_cast %v4j : i32 to index
  memref.store %v4x, %o[%v4jx] : memref<8xi32>
  %v4f = arith.subi %f4, %c1 : i32
  %v4done = arith.cmpi sle, %v4f, %c0 : i32
  cf.cond_br %v4done, ^exit(%v4x : i32), ^d4
^d4:
  cf.br ^b4(%v4f, %v4x, %v4y : i32, i32, i32)
^b5(%f5: i32, %x5: i32, %y5: i32):
  %v5i = arith.andi %x5, %c7 : i32
  %v5ix = arith.index_cast %v5i : i32 to index
  %v5l = memref.load %a[%v5ix] : memref<8xi32>
  %v5x = arith.muli %x5, %v5l : i32
  %v5y = arith.xori %y5, %v5x : i32
  %v5j = arith.andi %y5, %c7 : i32
  %v5jx = arith.index_cast %v5j : i32 to index
  memref.store %v5x, %o[%v5jx] : memref<8xi32>
  %v5f = arith.subi %f5, %c1 : i32
  %v5done = arith.cmpi sle, %v5f, %c0 : i32
  cf.cond_br %v5done, ^exit(%v5x : i32), ^d5
^d5:
  %v5m = arith.andi %v5y, %c1 : i32
  %v5c = arith.cmpi eq, %v5m, %c0 : i32
  cf.cond_br %v5c, ^b1(%v5f, %v5x, %v5y : i32, i32, i32), ^b6(%v5f, %v5y, %v5x : i32, i32, i32)
^b6(%f6: i32, %x6: i32, %y6: i32):
  %v6i = arith.andi %x6, %c7 : i32
  %v6ix = arith.index_cast %v6i : i32 to index
  %v6l = memref.load %a[%v6ix] : memref<8xi32>
  %v6x = arith.xori %x6, %v6l : i32
  %v6y = arith.addi %y6, %v6x : i32
  %v6f = arith.subi %f6, %c1 : i32
  %v6done = arith.cmpi sle, %v6f, %c0 : i32
  cf.cond_br %v6done, ^exit(%v6x : i32), ^d6
^d6:
  %v6m = arith.andi %v6y, %c1 : i32
  %v6c = arith.cmpi eq, %v6m, %c0 : i32
  cf.cond_br %v6c, ^b4(%v6f, %v6x, %v6y : i32, i32, i32), ^b5(%v6f, %v6y, %v6x : i32, i32, i32)
^b7(%f7: i32, %x7: i32, %y7: i32):
  %v7i = arith.andi %x7, %c7 : i32
  %v7ix = arith.index_cast %v7i : i32 to index
  %v7l = memref.load %a[%v7ix] : memref<8xi32>
  %v7x = arith.xori %x7, %v7l : i32
  %v7y = arith.xori %y7, %v7x : i32
  %v7f = arith.subi %f7, %c1 : i32
  %v7done = arith.cmpi sle, %v7f, %c0 : i32
  cf.cond_br %v7done, ^exit(%v7x : i32), ^d7
^d7:
  %v7m = arith.andi %v7y, %c1 : i32
  %v7c = arith.cmpi eq, %v7m, %c0 : i32
  cf.cond_br %v7c, ^b7(%v7f, %v7x, %v7y : i32, i32, i32), ^b6(%v7f, %v7y, %v7x : i32, i32, i32)
^exit(%r: i32):
  return %r : i32
}

func.func @third(%a: memref<8xi32>, %o: memref<8xi32>, %fuel0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %cf = arith.constant 40 : i32
  %f0 = arith.andi %fuel0, %c7 : i32
  %fuel = arith.addi %f0, %cf : i32
  cf.br ^b1(%fuel, %c1, %c7 : i32, i32, i32)
^b1(%f1: i32, %x1: i32, %y1: i32):
  %v1i = arith.andi %x1, %c7 : i32
  %v1ix = arith.index_cast %v1i : i32 to index
  %v1l = memref.load %a[%v1ix] : memref<8xi32>
  %v1x = arith.xori %x1, %v1l : i32
  %v1y = arith.xori %y1, %v1x : i32
  %v1j = arith.andi %y1, %c7 : i32
  %v1jx = arith.index_cast %v1j : i32 to index
  memref.store %v1x, %o[%v1jx] : memref<8xi32>
  %v1f = arith.subi %f1, %c1 : i32
  %v1done = arith.cmpi sle, %v1f, %c0 : i32
  cf.cond_br %v1done, ^exit(%v1x : i32), ^d1
^d1:
  %v1m = arith.andi %v1y, %c1 : i32
  %v1c = arith.cmpi eq, %v1m, %c0 : i32
  cf.cond_br %v1c, ^b1(%v1f, %v1x, %v1y : i32, i32, i32), ^b3(%v1f, %v1y, %v1x : i32, i32, i32)
^b2(%f2: i32, %x2: i32, %y2: i32):
  %v2i = arith.andi %x2, %c7 : i32
  %v2ix = arith.index_cast %v2i : i32 to index
  %v2l = memref.load %a[%v2ix] : memref<8xi32>
  %v2x = arith.muli %x2, %v2l : i32
  %v2y = arith.addi %y2, %v2x : i32
  %v2j = arith.andi %y2, %c7 : i32
  %v2jx = arith.index_cast %v2j : i32 to index
  memref.store %v2x, %o[%v2jx] : memref<8xi32>
  %v2f = arith.subi %f2, %c1 : i32
  %v2done = arith.cmpi sle, %v2f, %c0 : i32
  cf.cond_br %v2done, ^exit(%v2x : i32), ^d2
^d2:
  %v2m = arith.andi %v2y, %c1 : i32
  %v2c = arith.cmpi eq, %v2m, %c0 : i32
  cf.cond_br %v2c, ^b1(%v2f, %v2x, %v2y : i32, i32, i32), ^b4(%v2f, %v2y, %v2x : i32, i32, i32)
^b3(%f3: i32, %x3: i32, %y3: i32):
  %v3i = arith.andi %x3, %c7 : i32
  %v3ix = arith.index_cast %v3i : i32 to index
  %v3l = memref.load %a[%v3ix] : memref<8xi32>
  %v3x = arith.subi %x3, %v3l : i32
  %v3y = arith.muli %y3, %v3x : i32
  %v3f = arith.subi %f3, %c1 : i32
  %v3done = arith.cmpi sle, %v3f, %c0 : i32
  cf.cond_br %v3done, ^exit(%v3x : i32), ^d3
^d3:
  %v3m = arith.andi %v3y, %c1 : i32
  %v3c = arith.cmpi eq, %v3m, %c0 : i32
  cf.cond_br %v3c, ^b2(%v3f, %v3x, %v3y : i32, i32, i32), ^b2(%v3f, %v3y, %v3x : i32, i32, i32)
^b4(%f4: i32, %x4: i32, %y4: i32):
  %v4i = arith.andi %x4, %c7 : i32
  %v4ix = arith.index_cast %v4i : i32 to index
  %v4l = memref.load %a[%v4ix] : memref<8xi32>
  %v4x = arith.addi %x4, %v4l : i32
  %v4y = arith.addi %y4, %v4x : i32
  %v4j = arith.andi %y4, %c7 : i32
  %v4jx = arith.index_cast %v4j : i32 to index
  memref.store %v4x, %o[%v4jx] : memref<8xi32>
  %v4f = arith.subi %f4, %c1 : i32
  %v4done = arith.cmpi sle, %v4f, %c0 : i32
  cf.cond_br %v4done, ^exit(%v4x : i32), ^d4
^d4:
  %v4m = arith.andi %v4y, %c1 : i32
  %v4c = arith.cmpi eq, %v4m, %c0 : i32
  cf.cond_br %v4c, ^b5(%v4f, %v4x, %v4y : i32, i32, i32), ^b1(%v4f, %v4y, %v4x : i32, i32, i32)
^b5(%f5: i32, %x5: i32, %y5: i32):
  %v5i = arith.andi %x5, %c7 : i32
  %v5ix = arith.index_cast %v5i : i32 to index
  %v5l = memref.load %a[%v5ix] : memref<8xi32>
  %v5x = arith.muli %x5, %v5l : i32
  %v5y = arith.addi %y5, %v5x : i32
  %v5f = arith.subi %f5, %c1 : i32
  %v5done = arith.cmpi sle, %v5f, %c0 : i32
  cf.cond_br %v5done, ^exit(%v5x : i32), ^d5
^d5:
  cf.br ^b2(%v5f, %v5x, %v5y : i32, i32, i32)
^exit(%r: i32):
  return %r : i32
}
