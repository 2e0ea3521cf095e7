// --canonicalize folds hw's aggregate ops as CIRCT does (a field read
// from the struct made or injected with it, a constant index into an
// array made of its elements or into a constant array, a union field read
// back at the same type and offset, bitcasts undoing one another); the
// simulator gives the same outputs before and after.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica opt --canonicalize %s -o %t.d/canon.mlir
// RUN: FileCheck %s < %t.d/canon.mlir
// RUN: silica sim %s --top agg --random 200 --seed 1 -o %t.d/before.trace
// RUN: silica sim %t.d/canon.mlir --top agg --random 200 --seed 1 -o %t.d/after.trace
// RUN: diff %t.d/before.trace %t.d/after.trace

// CHECK-LABEL: hw.module @agg(
// CHECK-NEXT: %c3_i8 = hw.constant 3 : i8
// CHECK-NEXT: %0 = comb.concat %i, %i : i2, i2
// CHECK-NEXT: %1 = hw.union_create "p", %a : !hw.union<p: i8, q: i8, r: i8 offset 4>
// CHECK-NEXT: %2 = hw.union_extract %1["r"] : !hw.union<p: i8, q: i8, r: i8 offset 4>
// CHECK-NEXT: hw.output %a, %0, %c, %a, %a, %c3_i8, %a, %2, %a, %0 : i8, i4, i8, i8, i8, i8, i8, i8, i8, i4
hw.module @agg(in %a: i8, in %b: i4, in %c: i8, in %i: i2, in %u: !hw.union<p: i8, q: i8, r: i8 offset 4>, out o1: i8, out o2: i4, out o3: i8, out o4: i8, out o5: i8, out o6: i8, out o7: i8, out o8: i8, out o9: i8, out o10: i4) {
  %s = hw.struct_create (%a, %b) : !hw.struct<x: i8, y: i4>
  %o1 = hw.struct_extract %s["x"] : !hw.struct<x: i8, y: i4>
  %t = hw.struct_inject %s["y"], %i4 : !hw.struct<x: i8, y: i4>
  %i4 = comb.concat %i, %i : i2, i2
  %o2 = hw.struct_extract %t["y"] : !hw.struct<x: i8, y: i4>
  %o10 = hw.struct_extract %t["y"] : !hw.struct<x: i8, y: i4>
  %t2 = hw.struct_inject %t["x"], %c : !hw.struct<x: i8, y: i4>
  %o3 = hw.struct_extract %t2["x"] : !hw.struct<x: i8, y: i4>
  %arr = hw.array_create %a, %c, %a, %c : i8
  %one = hw.constant 1 : i2
  %three = hw.constant 3 : i2
  %o4 = hw.array_get %arr[%one] : !hw.array<4xi8>, i2
  %o5 = hw.array_get %arr[%three] : !hw.array<4xi8>, i2
  %k = hw.aggregate_constant [1 : i8, 2 : i8, 3 : i8, 4 : i8] : !hw.array<4xi8>
  %o6 = hw.array_get %k[%one] : !hw.array<4xi8>, i2
  %uc = hw.union_create "p", %a : !hw.union<p: i8, q: i8, r: i8 offset 4>
  %o7 = hw.union_extract %uc["q"] : !hw.union<p: i8, q: i8, r: i8 offset 4>
  %o8 = hw.union_extract %uc["r"] : !hw.union<p: i8, q: i8, r: i8 offset 4>
  %bc = hw.bitcast %s : (!hw.struct<x: i8, y: i4>) -> i12
  %bc2 = hw.bitcast %bc : (i12) -> !hw.array<3xi4>
  %bc3 = hw.bitcast %bc2 : (!hw.array<3xi4>) -> !hw.struct<x: i8, y: i4>
  %o9 = hw.struct_extract %bc3["x"] : !hw.struct<x: i8, y: i4>
  hw.output %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9, %o10 : i8, i4, i8, i8, i8, i8, i8, i8, i8, i4
}
