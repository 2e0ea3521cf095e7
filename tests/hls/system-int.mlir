// System co-simulation of an integer kernel with two results (an i64
// and an i32, the i64 read back through two result registers), an index
// and an i8 scalar changing between two calls, and i16 inputs; then the
// bad inputs of the `sim` backend on the same program: a buffer of the
// wrong size (the stub checks every memref descriptor against the
// kernel's shape, code 5 plus the argument times 256), a device that
// never finishes and a memory that answers with an error response (a
// message naming the register and the cycle, exit 1, never a hang).
// RUN: rm -rf %t.sys
// RUN: silica cosim %s --kernel mac -o %t.sys | FileCheck %s
// RUN: FileCheck %s --check-prefix=OUT < %t.sys/software.stdout
// RUN: not %t.sys/obj/hardware wrong-size 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: SILICA_SIM_MAX_CYCLES=50 not %t.sys/obj/hardware 2>&1 | FileCheck %s --check-prefix=HANG
// RUN: SILICA_SIM_SLVERR=1 not %t.sys/obj/hardware 2>&1 | FileCheck %s --check-prefix=SLVERR

// CHECK: system co-simulation of 'mac': 34 lines of output identical
// CHECK-NEXT: call 1: {{[0-9]+}} cycles, 3 AXI read bursts, 1 AXI write bursts, 192 bytes; first register write to done {{[0-9]+}} cycles, AXI busy {{[0-9]+}} ({{[0-9]+}}%); {{[0-9.]+}} ms
// CHECK-NEXT: call 2: {{[0-9]+}} cycles, 3 AXI read bursts, 1 AXI write bursts, 192 bytes;
// OUT: call 1: sum -238696440, negative 9
// OUT: call 2: sum -6114900, negative 5
// SIZE: silica sim: call 2: {{[0-9]+}} cycles
// SIZE-NEXT: silica sim: error: call 3 refused with code 261: the buffer of argument 1 has other sizes than the kernel's memref type
// HANG: silica sim: error: register 0x0 read at cycle {{[5-9][0-9]}} of call 1: the run takes more than 50 cycles (SILICA_SIM_MAX_CYCLES)
// SLVERR: silica sim: error: call 1 failed with code 4: ap_error (register 0x00): the AXI master got an error response (cycle {{[0-9]+}})

llvm.mlir.global internal constant @fmt_result("call %d: sum %lld, negative %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_word("%d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// z[i] = (x[i] * y[i]) >> s for i < n; returns the products' sum (i64)
// and how many are negative.
func.func @mac(%x: memref<16xi16> {hls.name = "x"}, %y: memref<16xi16> {hls.name = "y"},
               %z: memref<16xi32> {hls.name = "z"}, %n: index {hls.name = "n"},
               %s: i8 {hls.name = "s"}) -> (i64, i32) {
  %c0 = arith.constant 0 : i64
  %z0 = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %sh = arith.extui %s : i8 to i32
  %r:2 = affine.for %i = 0 to %n iter_args(%acc = %c0, %neg = %z0) -> (i64, i32) {
    %a = affine.load %x[%i] : memref<16xi16>
    %b = affine.load %y[%i] : memref<16xi16>
    %a32 = arith.extsi %a : i16 to i32
    %b32 = arith.extsi %b : i16 to i32
    %p = arith.muli %a32, %b32 : i32
    %q = arith.shrsi %p, %sh : i32
    affine.store %q, %z[%i] : memref<16xi32>
    %p64 = arith.extsi %p : i32 to i64
    %acc2 = arith.addi %acc, %p64 : i64
    %isneg = arith.cmpi slt, %p, %z0 : i32
    %inc = arith.select %isneg, %one, %z0 : i32
    %neg2 = arith.addi %neg, %inc : i32
    affine.yield %acc2, %neg2 : i64, i32
  }
  return %r#0, %r#1 : i64, i32
}

// x[i] = i * a + b, y[i] = c - i * a * 37, z[i] = -1.
func.func @fill(%x: memref<16xi16>, %y: memref<16xi16>, %z: memref<16xi32>, %a: i32, %b: i32, %c: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %k = arith.constant 37 : i32
  %m1 = arith.constant -1 : i32
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %ia = arith.muli %ii, %a : i32
    %xv = arith.addi %ia, %b : i32
    %x16 = arith.trunci %xv : i32 to i16
    memref.store %x16, %x[%i] : memref<16xi16>
    %iak = arith.muli %ia, %k : i32
    %yv = arith.subi %c, %iak : i32
    %y16 = arith.trunci %yv : i32 to i16
    memref.store %y16, %y[%i] : memref<16xi16>
    memref.store %m1, %z[%i] : memref<16xi32>
  }
  return
}

func.func @show(%call: i32, %sum: i64, %neg: i32, %z: memref<16xi32>) {
  %f = llvm.mlir.addressof @fmt_result : !llvm.ptr
  %p = llvm.call @printf(%f, %call, %sum, %neg) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i64, i32) -> i32
  %g = llvm.mlir.addressof @fmt_word : !llvm.ptr
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %z[%i] : memref<16xi32>
    %q = llvm.call @printf(%g, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  }
  return
}

// With an argument, a third call passes y as a buffer of 16 * argc
// elements cast to memref<16xi16>: the stub refuses it.
func.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
  %x = memref.alloc() : memref<16xi16>
  %y = memref.alloc() : memref<16xi16>
  %z = memref.alloc() : memref<16xi32>
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %a1 = arith.constant 1201 : i32
  %b1 = arith.constant -9000 : i32
  %c1 = arith.constant 30000 : i32
  func.call @fill(%x, %y, %z, %a1, %b1, %c1) : (memref<16xi16>, memref<16xi16>, memref<16xi32>, i32, i32, i32) -> ()
  %n1 = arith.constant 16 : index
  %s1 = arith.constant 3 : i8
  %r1:2 = func.call @mac(%x, %y, %z, %n1, %s1) : (memref<16xi16>, memref<16xi16>, memref<16xi32>, index, i8) -> (i64, i32)
  func.call @show(%one, %r1#0, %r1#1, %z) : (i32, i64, i32, memref<16xi32>) -> ()
  %a2 = arith.constant -77 : i32
  %b2 = arith.constant 500 : i32
  %c2 = arith.constant -3 : i32
  func.call @fill(%x, %y, %z, %a2, %b2, %c2) : (memref<16xi16>, memref<16xi16>, memref<16xi32>, i32, i32, i32) -> ()
  %n2 = arith.constant 11 : index
  %s2 = arith.constant 0 : i8
  %r2:2 = func.call @mac(%x, %y, %z, %n2, %s2) : (memref<16xi16>, memref<16xi16>, memref<16xi32>, index, i8) -> (i64, i32)
  func.call @show(%two, %r2#0, %r2#1, %z) : (i32, i64, i32, memref<16xi32>) -> ()
  %bad = arith.cmpi sgt, %argc, %one : i32
  scf.if %bad {
    %c16 = arith.constant 16 : i32
    %words = arith.muli %argc, %c16 : i32
    %n = arith.index_cast %words : i32 to index
    %big = memref.alloc(%n) : memref<?xi16>
    %y2 = memref.cast %big : memref<?xi16> to memref<16xi16>
    %r3:2 = func.call @mac(%x, %y2, %z, %n2, %s2) : (memref<16xi16>, memref<16xi16>, memref<16xi32>, index, i8) -> (i64, i32)
    memref.dealloc %big : memref<?xi16>
  }
  memref.dealloc %x : memref<16xi16>
  memref.dealloc %y : memref<16xi16>
  memref.dealloc %z : memref<16xi32>
  %zz = arith.constant 0 : i32
  return %zz : i32
}
