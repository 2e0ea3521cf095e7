// Calls under a condition (as Polymer/Pluto outputs call statement
// functions under affine.if): the callee's body is inlined where it is
// called, with a note, and the design co-simulates bit for bit; an
// scf.if on data guards a call that returns a value too.
// RUN: rm -rf %t.a %t.s
// RUN: silica hls %s --top affine_guard -o %t.a --sim | FileCheck %s --check-prefix=AFFINE
// RUN: verilator --lint-only -Wall %t.a/affine_guard.sv
// RUN: silica hls %s --top data_guard -o %t.s --sim | FileCheck %s --check-prefix=DATA
// RUN: verilator --lint-only -Wall %t.s/data_guard.sv

// AFFINE: co-simulation (seed 1): 16 values match
// AFFINE: note: the call of '@S0' at {{.*}}guarded-calls.mlir:[[@LINE+10]]:7 is under a condition: its body is inlined there
func.func private @S0(%a: memref<16xi32>, %i: index, %v: i32) {
  %x = affine.load %a[%i] : memref<16xi32>
  %y = arith.addi %x, %v : i32
  affine.store %y, %a[%i] : memref<16xi32>
  return
}
func.func @affine_guard(%a: memref<16xi32>, %v: i32) {
  affine.for %i = 0 to 16 {
    affine.if affine_set<(d0) : (d0 - 4 >= 0)>(%i) {
      func.call @S0(%a, %i, %v) : (memref<16xi32>, index, i32) -> ()
    }
  }
  return
}

// DATA: co-simulation (seed 1): 32 values match
// DATA: note: the call of '@scale' at {{.*}}guarded-calls.mlir:[[@LINE+11]]:12 is under a condition: its body is inlined there
func.func private @scale(%x: i32, %k: i32) -> i32 {
  %y = arith.muli %x, %k : i32
  return %y : i32
}
func.func @data_guard(%a: memref<16xi32>, %b: memref<16xi32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xi32>
    %pos = arith.cmpi sgt, %x, %c0 : i32
    %r = scf.if %pos -> (i32) {
      %s = func.call @scale(%x, %k) : (i32, i32) -> i32
      scf.yield %s : i32
    } else {
      scf.yield %x : i32
    }
    affine.store %r, %b[%i] : memref<16xi32>
  }
  return
}
