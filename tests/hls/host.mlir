// Host and device from one kernel (--interface axi --host, silica cosim):
// a program that calls the kernel axpy twice, with different data and
// scalars, built by silica's LLVM path and llc-22 twice: once with the
// kernel in software, once with the generated host stub (axpy_host.ll: the
// kernel's own signature with memref descriptors, over the driver API)
// and the `sim` driver backend (hls/runtime/sim.cpp) around the Verilated
// axpy_axi. Both print the same; the backend reports each call's cycles
// and AXI traffic.
// RUN: rm -rf %t.d %t.sys
// RUN: silica hls %s --top axpy -o %t.d --interface axi --host > /dev/null
// RUN: FileCheck %s --check-prefix=STUB < %t.d/axpy_host.mlir
// RUN: silica cosim %s --kernel axpy -o %t.sys | FileCheck %s
// RUN: FileCheck %s --check-prefix=OUT < %t.sys/software.stdout
// A device that never finishes, and a memory that answers every read with
// an error response: a message naming the register and the cycle, exit 1.
// RUN: SILICA_SIM_MAX_CYCLES=100 not %t.sys/obj/hardware 2>&1 | FileCheck %s --check-prefix=HANG
// RUN: SILICA_SIM_SLVERR=1 not %t.sys/obj/hardware 2>&1 | FileCheck %s --check-prefix=SLVERR
// RUN: not silica cosim %s --kernel nothere 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not silica hls %s --top axpy -o %t.bad --host 2>&1 | FileCheck %s --check-prefix=NOAXI

// STUB: func.func private @silica_dev_open(!llvm.ptr) -> i32
// STUB: func.func private @axpy_host_run(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: index, %arg4: i40) -> (i32, i32)
// STUB: call @silica_dev_write32
// STUB: func.func @axpy_ciface(
// STUB: func.func @axpy(%arg0: memref<8xi8>, %arg1: memref<8xi32>, %arg2: memref<8xi16>, %arg3: index, %arg4: i40) -> i32

// CHECK: system co-simulation of 'axpy': 4 lines of output identical (software {{[0-9.]+}} s, with the accelerator {{[0-9.]+}} s)
// CHECK-NEXT: call 1: {{[0-9]+}} cycles, 3 AXI read bursts, 1 AXI write bursts, 72 bytes
// CHECK-NEXT: call 2: {{[0-9]+}} cycles, 3 AXI read bursts, 1 AXI write bursts, 72 bytes

// OUT: call 1: result 315
// OUT-NEXT: out 5 24 43 62 81 100 -1 -1
// OUT-NEXT: call 2: result -204
// OUT-NEXT: out -36 -33 -30 -27 -24 -21 -18 -15

// HANG: silica sim: error: register 0x0 read at cycle {{1[0-9][0-9]}} of call 1: the run takes more than 100 cycles (SILICA_SIM_MAX_CYCLES)
// SLVERR: silica sim: call 1: {{[0-9]+}} cycles, 3 AXI read bursts, 1 AXI write bursts, 72 bytes
// SLVERR-NEXT: silica sim: error: call 1 failed with code 4: ap_error (register 0x00): the AXI master got an error response (cycle {{[0-9]+}})

// MISSING: error: no function named 'nothere'
// NOAXI: error: --host needs --interface axi or --shell uart

llvm.mlir.global internal constant @fmt_result("call %d: result %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_out("out %d %d %d %d %d %d %d %d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// out[i] = x[i] * k + y[i] (to 16 bits) for i < n; returns the sum.
func.func @axpy(%x: memref<8xi8> {hls.name = "x"}, %y: memref<8xi32> {hls.name = "y"},
                %out: memref<8xi16> {hls.name = "out"}, %n: index {hls.name = "n"},
                %k: i40 {hls.name = "k"}) -> i32 {
  %c0 = arith.constant 0 : i32
  %kk = arith.trunci %k : i40 to i32
  %r = affine.for %i = 0 to %n iter_args(%acc = %c0) -> (i32) {
    %a = affine.load %x[%i] : memref<8xi8>
    %a32 = arith.extsi %a : i8 to i32
    %b = affine.load %y[%i] : memref<8xi32>
    %p = arith.muli %a32, %kk : i32
    %s = arith.addi %p, %b : i32
    %t = arith.trunci %s : i32 to i16
    affine.store %t, %out[%i] : memref<8xi16>
    %acc2 = arith.addi %acc, %s : i32
    affine.yield %acc2 : i32
  }
  return %r : i32
}

// x[i] = i * a + b, y[i] = i * c; out[i] = -1.
func.func @fill(%x: memref<8xi8>, %y: memref<8xi32>, %out: memref<8xi16>, %a: i32, %b: i32, %c: i32) {
  %m1 = arith.constant -1 : i16
  affine.for %i = 0 to 8 {
    %ii = arith.index_cast %i : index to i32
    %xa = arith.muli %ii, %a : i32
    %xv = arith.addi %xa, %b : i32
    %x8 = arith.trunci %xv : i32 to i8
    affine.store %x8, %x[%i] : memref<8xi8>
    %yv = arith.muli %ii, %c : i32
    affine.store %yv, %y[%i] : memref<8xi32>
    affine.store %m1, %out[%i] : memref<8xi16>
  }
  return
}

func.func @show(%call: i32, %r: i32, %out: memref<8xi16>) {
  %f = llvm.mlir.addressof @fmt_result : !llvm.ptr
  %p = llvm.call @printf(%f, %call, %r) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i32) -> i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %v0 = memref.load %out[%c0] : memref<8xi16>
  %v1 = memref.load %out[%c1] : memref<8xi16>
  %v2 = memref.load %out[%c2] : memref<8xi16>
  %v3 = memref.load %out[%c3] : memref<8xi16>
  %v4 = memref.load %out[%c4] : memref<8xi16>
  %v5 = memref.load %out[%c5] : memref<8xi16>
  %v6 = memref.load %out[%c6] : memref<8xi16>
  %v7 = memref.load %out[%c7] : memref<8xi16>
  %w0 = arith.extsi %v0 : i16 to i32
  %w1 = arith.extsi %v1 : i16 to i32
  %w2 = arith.extsi %v2 : i16 to i32
  %w3 = arith.extsi %v3 : i16 to i32
  %w4 = arith.extsi %v4 : i16 to i32
  %w5 = arith.extsi %v5 : i16 to i32
  %w6 = arith.extsi %v6 : i16 to i32
  %w7 = arith.extsi %v7 : i16 to i32
  %g = llvm.mlir.addressof @fmt_out : !llvm.ptr
  %q = llvm.call @printf(%g, %w0, %w1, %w2, %w3, %w4, %w5, %w6, %w7) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i32, i32, i32, i32, i32, i32, i32) -> i32
  return
}

func.func @main() -> i32 {
  %x = memref.alloc() : memref<8xi8>
  %y = memref.alloc() : memref<8xi32>
  %out = memref.alloc() : memref<8xi16>
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  // Call 1: x = 3i + 1, y = 4i, n = 6, k = 5.
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  func.call @fill(%x, %y, %out, %c3, %one, %c4) : (memref<8xi8>, memref<8xi32>, memref<8xi16>, i32, i32, i32) -> ()
  %n1 = arith.constant 6 : index
  %k1 = arith.constant 5 : i40
  %r1 = func.call @axpy(%x, %y, %out, %n1, %k1) : (memref<8xi8>, memref<8xi32>, memref<8xi16>, index, i40) -> i32
  func.call @show(%one, %r1, %out) : (i32, i32, memref<8xi16>) -> ()
  // Call 2: x = -i + 9, y = -i, n = 8, k = -4 (as i40).
  %cm1 = arith.constant -1 : i32
  %c9 = arith.constant 9 : i32
  func.call @fill(%x, %y, %out, %cm1, %c9, %cm1) : (memref<8xi8>, memref<8xi32>, memref<8xi16>, i32, i32, i32) -> ()
  %n2 = arith.constant 8 : index
  %k2 = arith.constant -4 : i40
  %r2 = func.call @axpy(%x, %y, %out, %n2, %k2) : (memref<8xi8>, memref<8xi32>, memref<8xi16>, index, i40) -> i32
  func.call @show(%two, %r2, %out) : (i32, i32, memref<8xi16>) -> ()
  memref.dealloc %x : memref<8xi8>
  memref.dealloc %y : memref<8xi32>
  memref.dealloc %out : memref<8xi16>
  %z = arith.constant 0 : i32
  return %z : i32
}
