// Equality saturation finds forms the greedy canonicalizer does not:
// factoring (3 ops -> 2 under the op-count model) and strength reduction
// (a multiply by 8 becomes a shift under the latency and area models).
// RUN: silica opt --eqsat %s | FileCheck %s --check-prefix=OPS
// RUN: silica opt --canonicalize %s | FileCheck %s --check-prefix=CANON
// RUN: silica opt --eqsat=cost=area %s | FileCheck %s --check-prefix=AREA
// RUN: silica opt --eqsat=cost=latency %s | FileCheck %s --check-prefix=LATENCY
// RUN: silica opt -p 'builtin.module(func.func(eqsat{cost=ops iter-limit=4}))' %s | silica opt --verify-each | FileCheck %s --check-prefix=OPS
// RUN: not silica opt --eqsat=cost=speed %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: silica opt '--eqsat=extractor=lp cost=area' %s | FileCheck %s --check-prefix=LP

// OPS-LABEL: func.func @factor
// OPS-NEXT: %[[S:.*]] = arith.addi %arg1, %arg2 : i32
// OPS-NEXT: %[[M:.*]] = arith.muli %arg0, %[[S]] : i32
// OPS-NEXT: return %[[M]]
// LP-LABEL: func.func @factor
// LP-COUNT-1: arith.muli
// LP-LABEL: func.func @strength
// LP: arith.shli
// CANON-LABEL: func.func @factor
// CANON-COUNT-2: arith.muli
// CANON: arith.addi
func.func @factor(%a: i32, %b: i32, %c: i32) -> i32 {
  %0 = arith.muli %a, %b : i32
  %1 = arith.muli %a, %c : i32
  %2 = arith.addi %0, %1 : i32
  return %2 : i32
}

// AREA-LABEL: func.func @strength
// AREA: %[[K:.*]] = arith.constant 3 : i32
// AREA-NEXT: arith.shli %arg0, %[[K]] : i32
// LATENCY-LABEL: func.func @strength
// LATENCY: arith.shli
// OPS-LABEL: func.func @strength
// OPS: arith.muli %arg0, %c8_i32 : i32
func.func @strength(%x: i32) -> i32 {
  %c8 = arith.constant 8 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.muli %x, %c8 : i32
  %1 = arith.addi %0, %c3 : i32
  %2 = arith.subi %1, %c3 : i32
  return %2 : i32
}

// Runs stop at ops eqsat does not model; values of other types are leaves.
// OPS-LABEL: func.func @runs
// OPS: arith.cmpi
// OPS: arith.select
func.func @runs(%a: i64, %b: i64, %c: i1) -> i64 {
  %0 = arith.xori %a, %a : i64
  %1 = arith.ori %0, %b : i64
  %2 = arith.cmpi slt, %1, %a : i64
  %3 = arith.select %2, %1, %a : i64
  %4 = arith.andi %3, %3 : i64
  %5 = arith.addi %4, %b : i64
  return %5 : i64
}

// BAD: invalid value 'speed' for option 'cost' of pass 'eqsat': expected one of ops, latency, area
