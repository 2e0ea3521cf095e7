// --hw-aggregate-to-comb: arrays and structs become integers, their ops
// comb logic, with hw.bitcast where values cross to ops that stay. The
// simulator gives the same trace before and after on random inputs, and
// no aggregate op is left.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica opt --hw-aggregate-to-comb %s -o %t.d/lowered.mlir
// RUN: FileCheck %s < %t.d/lowered.mlir
// RUN: silica sim %s --top agg --random 300 --seed 5 -o %t.d/before.trace
// RUN: silica sim %t.d/lowered.mlir --top agg --random 300 --seed 5 -o %t.d/after.trace
// RUN: diff %t.d/before.trace %t.d/after.trace

// CHECK-LABEL: hw.module @agg
// CHECK-NOT: hw.array_
// CHECK-NOT: hw.struct_
// CHECK-NOT: hw.aggregate_constant
// CHECK: hw.output
!pair = !hw.struct<hi: i3, lo: i5>
hw.module @agg(in %clk: !seq.clock, in %a: !hw.array<4xi8>, in %b: !hw.array<2xi8>, in %i: i2, in %j: i1,
               in %v: i8, in %s: !pair, in %c: i1, in %x: i3,
               out get: i8, out slice: !hw.array<2xi8>, out inject: !hw.array<4xi8>, out cat: !hw.array<6xi8>,
               out fields: !pair, out mux: !hw.array<4xi8>, out nested: !pair, out reg: !hw.array<4xi8>, out k: i8) {
  %get = hw.array_get %a[%i] : !hw.array<4xi8>, i2
  // Slice starts stay in range: 0 or 1.
  %one = hw.constant 1 : i2
  %start = comb.and %i, %one : i2
  %slice = hw.array_slice %a[%start] : (!hw.array<4xi8>) -> !hw.array<2xi8>
  %inject = hw.array_inject %a[%i], %v : !hw.array<4xi8>, i2
  %cat = hw.array_concat %a, %b : !hw.array<4xi8>, !hw.array<2xi8>
  %lo = hw.struct_extract %s["lo"] : !pair
  %hi = hw.struct_extract %s["hi"] : !pair
  %swapped = hw.struct_inject %s["hi"], %x : !pair
  %created = hw.array_create %get, %v, %get, %v : i8
  %mux = comb.mux %c, %inject, %created : !hw.array<4xi8>
  %structs = hw.array_create %s, %swapped : !pair
  %nested = hw.array_get %structs[%j] : !hw.array<2x!pair>, i1
  %table = hw.aggregate_constant [1 : i8, 2 : i8, 3 : i8, 4 : i8] : !hw.array<4xi8>
  %k = hw.array_get %table[%i] : !hw.array<4xi8>, i2
  %r = seq.compreg %mux, %clk : !hw.array<4xi8>
  %lo3 = comb.extract %lo from 0 : (i5) -> i3
  %hi5 = comb.concat %hi, %hi : i3, i3
  %hi5t = comb.extract %hi5 from 1 : (i6) -> i5
  %fields = hw.struct_create (%lo3, %hi5t) : !pair
  hw.output %get, %slice, %inject, %cat, %fields, %mux, %nested, %r, %k : i8, !hw.array<2xi8>, !hw.array<4xi8>, !hw.array<6xi8>, !pair, !hw.array<4xi8>, !pair, !hw.array<4xi8>, i8
}
