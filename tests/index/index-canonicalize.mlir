// index dialect folding and canonicalization against mlir-opt-22. An op
// folds only where its value does not depend on `index` being 32 or 64
// bits wide; chains of associative ops gather their constants; a
// comparison of a difference with zero compares the operands; a
// comparison of a min/max with a constant folds when the range decides.
// RUN: diff <(silica opt --canonicalize --split-input-file %s) <(mlir-opt-22 --canonicalize --split-input-file %s)
// RUN: silica opt --canonicalize --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @width_independent
// CHECK-DAG: %[[A:.*]] = index.constant 7000000101
// CHECK-DAG: %[[B:.*]] = index.constant 512
// CHECK: return %[[A]], %[[B]]
func.func @width_independent() -> (index, index) {
  %a = index.constant 3000000001
  %b = index.constant 4000000100
  %0 = index.add %a, %b
  %c = index.constant 128
  %s = index.constant 2
  %1 = index.shl %c, %s
  return %0, %1 : index, index
}

// -----

// CHECK-LABEL: func.func @width_dependent
// Division whose 32-bit result differs from the truncated 64-bit one stays.
// CHECK: index.divs
// CHECK: index.shl
// CHECK-NOT: index.ceildivs
// CHECK: return
func.func @width_dependent() -> (index, index, index) {
  %a = index.constant 8589934592
  %m = index.constant 3
  %0 = index.divs %a, %m
  %b = index.constant 4000000000
  %k = index.constant 32
  %1 = index.shl %b, %k
  %n = index.constant -2147483648
  %o = index.constant -1
  %2 = index.ceildivs %n, %o
  return %0, %1, %2 : index, index, index
}

// -----

// CHECK-LABEL: func.func @gather
// CHECK: %[[C:.*]] = index.constant 3
// CHECK: index.add %arg0, %[[C]]
// CHECK: index.maxs %arg0, %{{.*}}
func.func @gather(%x: index) -> (index, index) {
  %c1 = index.constant 1
  %c2 = index.constant 2
  %0 = index.add %x, %c1
  %1 = index.add %0, %c2
  %c5 = index.constant 5
  %c9 = index.constant 9
  %2 = index.maxs %x, %c5
  %3 = index.maxs %2, %c9
  return %1, %3 : index, index
}

// -----

// CHECK-LABEL: func.func @compare
// CHECK: %[[T:.*]] = index.bool.constant true
// CHECK: %[[D:.*]] = index.cmp slt(%arg0, %arg1)
// CHECK: %[[E:.*]] = index.cmp ult(%arg1, %arg0)
// CHECK: return %[[T]], %[[T]], %[[D]], %[[E]]
func.func @compare(%x: index, %y: index) -> (i1, i1, i1, i1) {
  %c0 = index.constant 0
  %c1 = index.constant 1
  %m = index.maxs %x, %c1
  %0 = index.cmp sgt(%m, %c0)
  %1 = index.cmp sge(%x, %x)
  %d = index.sub %x, %y
  %2 = index.cmp slt(%d, %c0)
  %3 = index.cmp ult(%c0, %d)
  return %0, %1, %2, %3 : i1, i1, i1, i1
}

// -----

// CHECK-LABEL: func.func @casts
// CHECK-DAG: index.constant -1000
// CHECK-DAG: index.constant 4294966296
// CHECK: index.casts %arg0 : index to i64
func.func @casts(%x: index) -> (index, index, i64) {
  %c = arith.constant -1000 : i32
  %0 = index.casts %c : i32 to index
  %1 = index.castu %c : i32 to index
  %2 = index.casts %x : index to i64
  return %0, %1, %2 : index, index, i64
}
