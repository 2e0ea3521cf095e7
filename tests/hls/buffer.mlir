// On-chip buffers: `buffer = true` on an external memory makes the
// kernel work on an on-chip copy, filled before the body and written
// back after it by one loop each way that moves a word of every
// buffered memory an iteration. The copies are split into banks for the
// body's unrolled accesses (or a bank a lane), and get two ports where a
// loop reads and writes them or a copied word's lanes share a bank. Each design is co-simulated bit for bit
// against the kernel as written.
// RUN: rm -rf %t.g %t.p %t.m %t.r %t.o %t.w %t.v %t.b %t.s %t.n %t.e %t.y
// RUN: silica hls %s --top gemm -o %t.g --sim | FileCheck %s --check-prefix=GEMM
// RUN: verilator --lint-only -Wall %t.g/gemm.sv
// RUN: yosys -q -p "read_verilog -sv %t.g/gemm.sv; synth_ecp5 -top gemm"
// RUN: silica hls %s --top partial -o %t.p --sim | FileCheck %s --check-prefix=PARTIAL
// RUN: silica hls %s --top rows -o %t.w --sim | FileCheck %s --check-prefix=ROWS
// RUN: silica hls %s --top overlapped -o %t.v --sim | FileCheck %s --check-prefix=OVERLAPPED
// RUN: silica hls %s --top banked -o %t.b --sim | FileCheck %s --check-prefix=BANKED
// RUN: verilator --lint-only -Wall %t.b/banked.sv
// RUN: verilator --lint-only -Wall %t.v/overlapped.sv
// RUN: silica hls %s --top mixed -o %t.m --sim | FileCheck %s --check-prefix=MIXED
// RUN: silica hls %s --top windowed -o %t.n --sim | FileCheck %s --check-prefix=WINDOWED
// RUN: verilator --lint-only -Wall %t.n/windowed.sv
// RUN: silica hls %s --top sweeps -o %t.e --sim | FileCheck %s --check-prefix=SWEEPS
// RUN: verilator --lint-only -Wall %t.e/sweeps.sv
// RUN: silica hls %s --top early -o %t.y --sim | FileCheck %s --check-prefix=EARLY
// RUN: verilator --lint-only -Wall %t.y/early.sv
// RUN: silica hls %s --top refused -o %t.r 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: silica hls %s --top scaled -o %t.s --sim | FileCheck %s --check-prefix=SCALED
// RUN: verilator --lint-only -Wall %t.s/scaled.sv
// RUN: yosys -q -p "read_verilog -sv %t.s/scaled.sv; synth_ecp5 -top scaled"
// RUN: silica hls %s --top mixed -o %t.o --dump-after=buffer 2> %t.dump
// RUN: silica opt %s -p 'builtin.module(func.func(hls-buffer))' > %t.opt
// RUN: tail -n +2 %t.dump | FileCheck %s --check-prefix=DUMP
// RUN: FileCheck %s --check-prefix=DUMP < %t.opt

// A, B and C each cross their 64-bit ports once each way at a word (four
// elements) a cycle, all three at once; the flattened product runs on
// the copies, 8 products a cycle.
// GEMM: co-simulation (seed 1): 768 values match, latency [[CYCLES:[0-9]+]] cycles
// GEMM: gemm/copy_in: trip 64, pipelined, II 1
// GEMM: gemm/i: trip 512 (flattened with gemm/i/k, gemm/i/k/j), pipelined, II 1
// GEMM: gemm/copy_out: trip 64, pipelined, II 1
// GEMM: A: buffer (attribute): honoured: A_buf, an on-chip RAM of 256 elements: read in before the body (copy_in); 4 banks on dimension 2 for a word a cycle
// GEMM: A_buf: partition cyclic dim 2 factor 4 (derived): honoured: 4 banks of 16x4
// GEMM: B: buffer (attribute): honoured: B_buf, an on-chip RAM of 256 elements: read in before the body (copy_in); 8 banks on dimension 2 for the unrolled accesses
// GEMM: C: buffer (attribute): honoured: C_buf, an on-chip RAM of 256 elements: read in before the body (copy_in), written back after it (copy_out); 8 banks on dimension 2 for the unrolled accesses; two ports, for the accesses of one loop
// GEMM: C_buf: ports = 2 (derived): honoured
func.func @gemm(%A: memref<16x16xi16> {hls.name = "A", hls.buffer = true, hls.width = 4},
                %B: memref<16x16xi16> {hls.name = "B", hls.buffer = true, hls.width = 4},
                %C: memref<16x16xi16> {hls.name = "C", hls.buffer = true, hls.width = 4}) {
  affine.for %i = 0 to 16 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 16 {
        %a = affine.load %A[%i, %k] : memref<16x16xi16>
        %b = affine.load %B[%k, %j] : memref<16x16xi16>
        %c = affine.load %C[%i, %j] : memref<16x16xi16>
        %p = arith.muli %a, %b : i16
        %s = arith.addi %c, %p : i16
        affine.store %s, %C[%i, %j] : memref<16x16xi16>
      } {hls.label = "j", hls.unroll = 8}
    } {hls.label = "k"}
  } {hls.label = "i", hls.flatten}
  return
}

// A kernel that writes some elements: the others go back unchanged.
// PARTIAL: co-simulation (seed 1): 24 values match
func.func @partial(%a: memref<12xi32> {hls.name = "a"},
                   %b: memref<12xi32> {hls.name = "b", hls.buffer = true}) {
  affine.for %i = 0 to 5 {
    %x = affine.load %a[%i] : memref<12xi32>
    %y = affine.load %b[%i + 2] : memref<12xi32>
    %s = arith.addi %x, %y : i32
    affine.store %s, %b[%i * 2] : memref<12xi32>
  }
  return
}

// Memories of different widths (a copy loop per count of lanes), of
// fewer words than another (copied under a test of the counter) and of
// elements past the last whole word (copied after the loop). A row of
// c is 9 elements: the bank of c_buf a lane of a word lands in is not
// known, and each word takes two cycles.
// MIXED: co-simulation (seed 1): 43 values match
// MIXED: mixed/copy_in_2: trip 5, pipelined, II 1
// MIXED: mixed/copy_in_4: trip 6, pipelined
// MIXED: mixed/copy_out_2: trip 5, pipelined, II 1
// MIXED: mixed/copy_out_4: trip 6, pipelined
func.func @mixed(%a: memref<10xi32> {hls.name = "a", hls.buffer = true, hls.width = 2},
                 %b: memref<6xi32> {hls.name = "b", hls.buffer = true, hls.width = 2},
                 %c: memref<3x9xi8> {hls.name = "c", hls.buffer = true, hls.width = 4}) {
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 9 {
      %x = affine.load %c[%i, %j] : memref<3x9xi8>
      %y = affine.load %c[2 - %i, 8 - %j] : memref<3x9xi8>
      %s = arith.addi %x, %y : i8
      affine.store %s, %c[%i, %j] : memref<3x9xi8>
    }
  }
  affine.for %i = 0 to 6 {
    %x = affine.load %a[%i + 4] : memref<10xi32>
    %y = affine.load %b[5 - %i] : memref<6xi32>
    %s = arith.subi %x, %y : i32
    affine.store %s, %a[%i] : memref<10xi32>
  }
  return
}

// DUMP-LABEL: func.func @mixed
// DUMP: memref.alloc() {hls.name = "a_buf", hls.partition = {dim = 1 : i64, factor = 2 : i64, kind = "cyclic"}, hls.ports = 2 : i64} : memref<10xi32>
// DUMP: affine.for %{{.*}} = 0 to 10 step 2 {
// DUMP: affine.if
// DUMP: } {hls.copy, hls.label = "copy_in_2"}
// DUMP: affine.for %{{.*}} = 0 to 24 step 4 {
// DUMP: } {hls.copy, hls.label = "copy_in_4"}
// DUMP: affine.load %arg2[2, 8] : memref<3x9xi8>
// DUMP: affine.store %{{.*}}, %{{.*}}[2, 8] : memref<3x9xi8>
// DUMP: } {hls.copy, hls.label = "copy_out_2"}
// DUMP: } {hls.copy, hls.label = "copy_out_4"}
// DUMP: affine.store %{{.*}}, %arg2[2, 8] : memref<3x9xi8>
// DUMP-NEXT: return

// Rows of 25 elements in 5 banks, copied two elements a word: which bank
// an element goes to is found at run time, so each lane has an access
// on every bank; but the two lanes never meet in a bank, so each bank
// has one access a copied word (merged, `schedule/exclusive.rs`), and
// the copies take one port of each bank at a word a cycle, the other
// left to the body running beside them.
// BANKED: co-simulation (seed 1): 400 values match, latency 206 cycles
// BANKED: dataflow: banked/copy_in (from cycle 0), banked/0 (from cycle 41), banked/copy_out (from cycle 100) run at once
// BANKED: banked/copy_in: trip 100, pipelined, II 1
// BANKED: banked/copy_out: trip 100, pipelined, II 1
func.func @banked(%C: memref<8x25xi32> {hls.name = "C", hls.buffer = true, hls.width = 2},
                  %E: memref<8x25xi32> {hls.name = "E", hls.buffer = true, hls.width = 2})
    attributes {hls.dataflow = true} {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 25 {
      %c = affine.load %C[%i, %j] : memref<8x25xi32>
      %t = arith.muli %c, %c : i32
      affine.store %t, %E[%i, %j] : memref<8x25xi32>
    } {hls.unroll = 5}
  }
  return
}

// The q loop inside the pipelined j loop unrolls fully: its three
// accesses a cycle reach three banks of the copy's columns. The i loop
// around the pipeline runs its iterations one after another and asks
// for no banks.
// WINDOWED: co-simulation (seed 1): 120 values match
// WINDOWED: windowed/0/0: trip 6, pipelined, II 1
// WINDOWED: I_buf: partition cyclic dim 2 factor 3 (derived): honoured: 3 banks of 8x3
func.func @windowed(%I: memref<8x9xi16> {hls.name = "I", hls.buffer = true},
                    %O: memref<8x6xi16> {hls.name = "O"}) {
  %zero = arith.constant 0 : i16
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 6 {
      %s = affine.for %q = 0 to 3 iter_args(%a = %zero) -> i16 {
        %x = affine.load %I[%i, %j + %q] : memref<8x9xi16>
        %t = arith.addi %a, %x : i16
        affine.yield %t : i16
      }
      affine.store %s, %O[%i, %j] : memref<8x6xi16>
    } {hls.pipeline = true}
  }
  return
}

// Two sweeps of a stencil, each nest's rows jammed by 2 and its columns
// unrolled by 2: each access's bank along the rows is fixed by its jam
// and along the columns by its unroll, so the copies are split along
// both (that the rows of the two nests are counted by different loops
// does not matter) and each sweep's inner loop issues its four copies a
// cycle.
// SWEEPS: co-simulation (seed 1): 200 values match
// SWEEPS: sweeps/0/0: trip 4, pipelined, II 1
// SWEEPS: sweeps/1/0: trip 4, pipelined, II 1
// SWEEPS: A_buf: partition cyclic dim 1 factor 2, partition cyclic dim 2 factor 2 (derived): honoured: 4 banks of 5x5
// SWEEPS: B_buf: partition cyclic dim 1 factor 2, partition cyclic dim 2 factor 2 (derived): honoured: 4 banks of 5x5
func.func @sweeps(%A: memref<10x10xi32> {hls.name = "A", hls.buffer = true},
                  %B: memref<10x10xi32> {hls.name = "B", hls.buffer = true}) {
  affine.for %i = 1 to 9 {
    affine.for %j = 1 to 9 {
      %c = affine.load %A[%i, %j] : memref<10x10xi32>
      %w = affine.load %A[%i, %j - 1] : memref<10x10xi32>
      %t = arith.addi %c, %w : i32
      affine.store %t, %B[%i, %j] : memref<10x10xi32>
    } {hls.unroll = 2, hls.pipeline = true}
  } {hls.jam = 2}
  affine.for %k = 1 to 9 {
    affine.for %l = 1 to 9 {
      %c = affine.load %B[%k, %l] : memref<10x10xi32>
      %e = affine.load %B[%k, %l + 1] : memref<10x10xi32>
      %t = arith.subi %c, %e : i32
      affine.store %t, %A[%k, %l] : memref<10x10xi32>
    } {hls.unroll = 2, hls.pipeline = true}
  } {hls.jam = 2}
  return
}

// A copy the first nest writes last is written back right after it
// (`copy_out_A`), while the second nest, which reads it, runs; the copy
// the second nest writes is written back at the end.
// EARLY: co-simulation (seed 1): 72 values match, latency [[L:[0-9]+]] cycles
// EARLY: latency: [[L]] cycles ({{.*}}), measured by co-simulation, as the static schedule gives
// EARLY: dataflow: early/copy_in (from cycle 0), early/0 (from cycle {{[0-9]+}}), early/copy_out_A (from cycle {{[0-9]+}}), early/1 (from cycle {{[0-9]+}}), early/copy_out (from cycle {{[0-9]+}}) run at once
// EARLY: early/copy_out_A: trip 32, pipelined, II 1
// EARLY: early/copy_out: trip 4, pipelined, II 1
func.func @early(%A: memref<8x8xi32> {hls.name = "A", hls.buffer = true, hls.width = 2},
                 %y: memref<8xi32> {hls.name = "y", hls.buffer = true, hls.width = 2})
    attributes {hls.dataflow = true} {
  %c0 = arith.constant 0 : i32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j] : memref<8x8xi32>
      %t = arith.addi %a, %a : i32
      affine.store %t, %A[%i, %j] : memref<8x8xi32>
    } {hls.pipeline = true}
  }
  affine.for %i = 0 to 8 {
    %s = affine.for %j = 0 to 8 iter_args(%acc = %c0) -> i32 {
      %a = affine.load %A[%j, %i] : memref<8x8xi32>
      %n = arith.addi %acc, %a : i32
      affine.yield %n : i32
    } {hls.pipeline = true}
    affine.store %s, %y[%i] : memref<8xi32>
  }
  return
}

// REFUSED: warning: buffer on a is not honoured: it is passed to 'func.call', which works on the memory itself
// REFUSED: warning: buffer on buf is not honoured: an on-chip array needs no copy
func.func @callee(%a: memref<4xi8>) {
  return
}
func.func @refused(%a: memref<4xi8> {hls.name = "a", hls.buffer = true}) {
  %buf = memref.alloc() {hls.name = "buf", hls.buffer = true} : memref<4xi8>
  func.call @callee(%a) : (memref<4xi8>) -> ()
  return
}

// The k loop jammed by 2 reads two rows of B side by side: B's copy is
// split by rows, so each copied word's two lanes (one row) land in one
// bank, written in one cycle through its two ports: a word a cycle.
// ROWS: co-simulation (seed 1): {{[0-9]+}} values match, latency {{[0-9]+}} cycles
// ROWS: rows/copy_in: trip 32, pipelined, II 1
// ROWS: B: buffer (attribute): honoured: B_buf, an on-chip RAM of 64 elements: read in before the body (copy_in); 2 banks on dimension 1 for the unrolled accesses; two ports, for the accesses of one loop
func.func @rows(%A: memref<8x8xi32> {hls.name = "A"},
                %B: memref<8x8xi32> {hls.name = "B", hls.buffer = true, hls.width = 2},
                %C: memref<8x8xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 8 {
      affine.for %j = 0 to 8 {
        %a = affine.load %A[%i, %k] : memref<8x8xi32>
        %b = affine.load %B[%k, %j] : memref<8x8xi32>
        %c = affine.load %C[%i, %j] : memref<8x8xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<8x8xi32>
      }
    } {hls.jam = 2}
  }
  return
}

// With dataflow, the copies run at once with the body: the body starts
// once the words it reads first are in, and copy_out reads each word of
// C once the body has written it for the last time, long before the
// body ends. copy_in takes both ports of the buffers it fills (a word a
// cycle), the body and copy_out a port each of C's.
// OVERLAPPED: co-simulation (seed 1): 192 values match, latency 284 cycles
// OVERLAPPED: dataflow: overlapped/copy_in (from cycle 0), overlapped/0 (from cycle 7), overlapped/copy_out (from cycle 248) run at once
// OVERLAPPED: note: dataflow: the loop nests run at once (284 cycles; one after another, 341)
func.func @overlapped(%A: memref<8x8xi32> {hls.name = "A", hls.buffer = true, hls.width = 2},
                      %B: memref<8x8xi32> {hls.name = "B", hls.buffer = true, hls.width = 2},
                      %C: memref<8x8xi32> {hls.name = "C", hls.buffer = true, hls.width = 2})
    attributes {hls.dataflow = true, hls.limits = {mul = 2}} {
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 8 {
      affine.for %j = 0 to 8 {
        %a = affine.load %A[%i, %k] : memref<8x8xi32>
        %b = affine.load %B[%k, %j] : memref<8x8xi32>
        %c = affine.load %C[%i, %j] : memref<8x8xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<8x8xi32>
      } {hls.unroll = 2}
    } {hls.jam = 2, hls.flatten = true}
  }
  return
}

// Every read of A is multiplied by alpha, and the first thing done to
// each element of C below its diagonal is to multiply it by beta: the
// copies in apply those products, once an element (C's to the elements
// below the diagonal alone), and the body keeps only its own (the nest
// that only scaled C has nothing left to do: it is gone).
// SCALED: co-simulation (seed 1): 74 values match
// SCALED: scaled/copy_in: trip
// SCALED-NOT: scaled/0: trip
// SCALED: scaled/1: trip 6
// SCALED: A: buffer (attribute): honoured: A_buf, an on-chip RAM of 24 elements: read in before the body (copy_in), each element multiplied by alpha as it is read in (the body's products by it)
// SCALED: C: buffer (attribute): honoured: C_buf, an on-chip RAM of 30 elements: read in before the body (copy_in), each element multiplied by beta as it is read in (the body's products by it), written back after it (copy_out)
func.func @scaled(%alpha: i32 {hls.name = "alpha"}, %beta: i32 {hls.name = "beta"},
                  %C: memref<6x5xi32> {hls.name = "C", hls.buffer = true},
                  %A: memref<6x4xi32> {hls.name = "A", hls.buffer = true},
                  %B: memref<4x5xi32> {hls.name = "B"}) {
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %c = affine.load %C[%i, %j] : memref<6x5xi32>
      %s = arith.muli %c, %beta : i32
      affine.store %s, %C[%i, %j] : memref<6x5xi32>
    }
  }
  affine.for %i = 0 to 6 {
    affine.for %k = 0 to 4 {
      affine.for %j = 0 to 5 {
        %c = affine.load %C[%i, %j] : memref<6x5xi32>
        %a = affine.load %A[%i, %k] : memref<6x4xi32>
        %x = arith.muli %alpha, %a : i32
        %b = affine.load %B[%k, %j] : memref<4x5xi32>
        %p = arith.muli %x, %b : i32
        %t = arith.addi %c, %p : i32
        affine.store %t, %C[%i, %j] : memref<6x5xi32>
      }
    }
  }
  return
}
