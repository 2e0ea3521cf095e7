// scf.while, scf.if with results, cf.switch with block arguments, and
// cf.assert, lowered by silica alone and run in lli-22; the output
// matches the mlir-opt-22 + mlir-translate-22 pipeline's.
// RUN: silica opt --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts %s | silica translate --to-llvmir -o %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: lli-22 %t.ll > %t.silica.txt
// RUN: mlir-opt-22 --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts %s | mlir-translate-22 --mlir-to-llvmir | lli-22 > %t.mlir.txt
// RUN: diff %t.silica.txt %t.mlir.txt
// RUN: FileCheck %s --input-file %t.silica.txt
// CHECK: collatz 27 steps 111 max 9232
// CHECK: classify 0 1 2 2 1 0 2 2

llvm.mlir.global internal constant @collatz_fmt("collatz %d steps %d max %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @classes_fmt("classify %d %d %d %d %d %d %d %d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// Steps of the Collatz sequence from n to 1, and its largest value.
func.func @collatz(%n: i64) -> (i64, i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %r:3 = scf.while (%x = %n, %steps = %c0, %max = %n) : (i64, i64, i64) -> (i64, i64, i64) {
    %more = arith.cmpi ne, %x, %c1 : i64
    scf.condition(%more) %x, %steps, %max : i64, i64, i64
  } do {
  ^bb0(%x: i64, %steps: i64, %max: i64):
    %rem = arith.remui %x, %c2 : i64
    %even = arith.cmpi eq, %rem, %c0 : i64
    %next = scf.if %even -> i64 {
      %h = arith.divui %x, %c2 : i64
      scf.yield %h : i64
    } else {
      %t = arith.muli %x, %c3 : i64
      %u = arith.addi %t, %c1 : i64
      scf.yield %u : i64
    }
    %s = arith.addi %steps, %c1 : i64
    %m = arith.maxui %max, %next : i64
    scf.yield %next, %s, %m : i64, i64, i64
  }
  return %r#1, %r#2 : i64, i64
}

// 0 for multiples of 3, 1 for 1 and 4 (mod 6), 2 for 2 and 5, 3 otherwise.
func.func @classify(%v: i32) -> i32 {
  %c6 = arith.constant 6 : i32
  %m = arith.remui %v, %c6 : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  cf.switch %m : i32, [
    default: ^other,
    0: ^done(%zero : i32),
    3: ^done(%zero : i32),
    1: ^done(%one : i32),
    4: ^done(%one : i32),
    2: ^done(%two : i32),
    5: ^done(%two : i32)
  ]
^other:
  cf.br ^done(%three : i32)
^done(%r: i32):
  return %r : i32
}

func.func @main() -> i32 {
  %n = arith.constant 27 : i64
  %steps, %max = call @collatz(%n) : (i64) -> (i64, i64)
  %fmt = llvm.mlir.addressof @collatz_fmt : !llvm.ptr
  %p = llvm.call @printf(%fmt, %n, %steps, %max) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64, i64, i64) -> i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c11 = arith.constant 11 : i32
  %c3 = arith.constant 3 : i32
  %r0 = call @classify(%c0) : (i32) -> i32
  %r1 = call @classify(%c1) : (i32) -> i32
  %r2 = call @classify(%c2) : (i32) -> i32
  %r3 = call @classify(%c5) : (i32) -> i32
  %r4 = call @classify(%c7) : (i32) -> i32
  %r5 = call @classify(%c3) : (i32) -> i32
  %r6 = call @classify(%c11) : (i32) -> i32
  %r7 = call @classify(%c8) : (i32) -> i32
  %sane = arith.cmpi eq, %r5, %c0 : i32
  cf.assert %sane, "3 is a multiple of 3"
  %cf = llvm.mlir.addressof @classes_fmt : !llvm.ptr
  %q = llvm.call @printf(%cf, %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i32, i32, i32, i32, i32, i32, i32) -> i32
  return %c0 : i32
}
