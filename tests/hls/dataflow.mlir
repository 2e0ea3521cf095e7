// Dataflow (`hls.dataflow`, flow/schedule/dataflow.rs): the body's loop
// nests run at once, each task started at the fewest cycles after the
// first that its static timeline allows.
// chain: a producer and a consumer of a local buffer, read in the order
// written: a FIFO channel of one word (132 -> 70 cycles).
// pairs: the consumer reads the buffer two words at a time, the second
// first, at II 2 on its own port: a ring buffer of three words
// (132 -> 71 cycles).
// A `depth` one word smaller than the channel needs is an error at the
// directive (the schedules would overwrite a word before it is read: no
// handshake waits), naming the word lost and the cycles.
// rows: two 8x8 products chained through an external array `t`, which
// gets a second port: the second starts when the first row of t is
// written (1281 -> 715 cycles).
// reverse: the consumer reads the buffer backwards, so it can only start
// once the producer is done: the nests run one after another (a note).
// overtake: the second nest reads what the first writes backwards, so it
// starts once the first is done; the third shares nothing with either
// and starts at once, before the second (322 -> 307 cycles).
// All co-simulated bit for bit, the static latency agreeing; lint clean.
// RUN: rm -rf %t.chain %t.seq %t.pairs %t.short %t.rows %t.rseq %t.rev %t.late %t.over
// RUN: silica hls %s --top chain -o %t.chain --sim | FileCheck %s --check-prefix=CHAIN
// RUN: FileCheck %s --check-prefix=CHAIN-R < %t.chain/report.txt
// RUN: silica hls %s --top chain -o %t.seq --sim --directives %S/directives/nodataflow.toml | FileCheck %s --check-prefix=SEQ
// RUN: silica hls %s --top pairs -o %t.pairs --sim | FileCheck %s --check-prefix=PAIRS
// RUN: FileCheck %s --check-prefix=PAIRS-R < %t.pairs/report.txt
// RUN: not silica hls %s --top pairs -o %t.short --directives %S/directives/depth-short.toml 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: test ! -e %t.short
// RUN: silica hls %s --top rows -o %t.rows --sim | FileCheck %s --check-prefix=ROWS
// RUN: FileCheck %s --check-prefix=ROWS-R < %t.rows/report.txt
// RUN: silica hls %s --top rows -o %t.rseq --sim --directives %S/directives/nodataflow.toml | FileCheck %s --check-prefix=RSEQ
// RUN: silica hls %s --top reverse -o %t.rev --sim | FileCheck %s --check-prefix=REV
// RUN: FileCheck %s --check-prefix=REV-R < %t.rev/report.txt
// RUN: silica hls %s --top late -o %t.late --sim | FileCheck %s --check-prefix=LATE
// RUN: FileCheck %s --check-prefix=LATE-R < %t.late/report.txt
// RUN: silica hls %s --top overtake -o %t.over --sim | FileCheck %s --check-prefix=OVER
// RUN: FileCheck %s --check-prefix=OVER-R < %t.over/report.txt
// RUN: verilator --lint-only -Wall %t.over/overtake.sv
// RUN: yosys -q -p "read_verilog -sv %t.over/overtake.sv; synth_ecp5 -top overtake"
// RUN: verilator --lint-only -Wall %t.chain/chain.sv
// RUN: verilator --lint-only -Wall %t.pairs/pairs.sv
// RUN: verilator --lint-only -Wall %t.rows/rows.sv
// RUN: verilator --lint-only -Wall %t.late/late.sv

// CHAIN: co-simulation (seed 1): 128 values match, latency 70 cycles
// CHAIN-R: latency: 70 cycles ({{.*}}), measured by co-simulation, as the static schedule gives
// CHAIN-R: dataflow: chain/0 (from cycle 0), chain/1 (from cycle 3) run at once
// CHAIN-R: dataflow channel buf: a FIFO of 1 word (of 64) from chain/0 to chain/1
// CHAIN-R: note: dataflow: the loop nests run at once (70 cycles; one after another, 132)
// CHAIN-R: chain: dataflow (attribute): honoured: loop nests that may run at once: chain/0, chain/1 (a second port for buf)
// SEQ: co-simulation (seed 1): 128 values match, latency 132 cycles
func.func @chain(%x: memref<64xi32> {hls.name = "x"}, %y: memref<64xi32> {hls.name = "y"}) attributes {hls.dataflow = true} {
  %buf = memref.alloc() {hls.name = "buf"} : memref<64xi32>
  affine.for %i = 0 to 64 {
    %a = affine.load %x[%i] : memref<64xi32>
    %b = arith.muli %a, %a : i32
    %c = arith.muli %b, %a : i32
    affine.store %c, %buf[%i] : memref<64xi32>
  }
  affine.for %i = 0 to 64 {
    %a = affine.load %buf[%i] : memref<64xi32>
    %b = arith.addi %a, %a : i32
    affine.store %b, %y[%i] : memref<64xi32>
  }
  return
}

// PAIRS: co-simulation (seed 1): 96 values match, latency 71 cycles
// PAIRS-R: dataflow: pairs/0 (from cycle 0), pairs/1 (from cycle 4) run at once
// PAIRS-R: dataflow channel buf: a ring buffer of 3 words, built as 4 (of 64) from pairs/0 to pairs/1
// PAIRS-R: note: dataflow: the loop nests run at once (71 cycles; one after another, 131)
// SHORT: depth-short.toml:4:9: error: array 'buf': a channel of 2 words from pairs/0 to pairs/1 loses word 0, which pairs/1 reads at cycle 5: word 2 takes its slot at cycle 4; it needs 3 words
func.func @pairs(%x: memref<64xi32> {hls.name = "x"}, %y: memref<32xi32> {hls.name = "y"}) attributes {hls.dataflow = true} {
  %buf = memref.alloc() {hls.name = "buf"} : memref<64xi32>
  affine.for %i = 0 to 64 {
    %a = affine.load %x[%i] : memref<64xi32>
    %b = arith.muli %a, %a : i32
    affine.store %b, %buf[%i] : memref<64xi32>
  }
  affine.for %i = 0 to 32 {
    %a = affine.load %buf[2 * %i + 1] : memref<64xi32>
    %b = affine.load %buf[2 * %i] : memref<64xi32>
    %c = arith.subi %a, %b : i32
    affine.store %c, %y[%i] : memref<32xi32>
  } {hls.pipeline = 2}
  return
}

// ROWS: co-simulation (seed 1): 256 values match, latency 715 cycles
// ROWS-R: dataflow: rows/0 (from cycle 0), rows/1 (from cycle 73) run at once
// ROWS-R: note: dataflow: the loop nests run at once (715 cycles; one after another, 1281)
// ROWS-R: rows: dataflow (attribute): honoured: loop nests that may run at once: rows/0, rows/1 (a second port for b, t)
// RSEQ: co-simulation (seed 1): 256 values match, latency 1281 cycles
func.func @rows(%a: memref<8x8xi32> {hls.name = "a"}, %b: memref<8x8xi32> {hls.name = "b"},
                %t: memref<8x8xi32> {hls.name = "t"}, %d: memref<8x8xi32> {hls.name = "d"}) attributes {hls.dataflow = true} {
  %zero = arith.constant 0 : i32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %s = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> i32 {
        %x = affine.load %a[%i, %k] : memref<8x8xi32>
        %y = affine.load %b[%k, %j] : memref<8x8xi32>
        %p = arith.muli %x, %y : i32
        %n = arith.addi %acc, %p : i32
        affine.yield %n : i32
      }
      affine.store %s, %t[%i, %j] : memref<8x8xi32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %s = affine.for %k = 0 to 8 iter_args(%acc = %zero) -> i32 {
        %x = affine.load %t[%i, %k] : memref<8x8xi32>
        %y = affine.load %b[%k, %j] : memref<8x8xi32>
        %p = arith.muli %x, %y : i32
        %n = arith.addi %acc, %p : i32
        affine.yield %n : i32
      }
      affine.store %s, %d[%i, %j] : memref<8x8xi32>
    }
  }
  return
}

// REV: co-simulation (seed 1): 128 values match
// REV-R: note: dataflow: the loop nests run one after another
// REV-R-NOT: dataflow: reverse/0
func.func @reverse(%x: memref<64xi32> {hls.name = "x"}, %y: memref<64xi32> {hls.name = "y"}) attributes {hls.dataflow = true} {
  %buf = memref.alloc() {hls.name = "buf"} : memref<64xi32>
  affine.for %i = 0 to 64 {
    %a = affine.load %x[%i] : memref<64xi32>
    %b = arith.muli %a, %a : i32
    affine.store %b, %buf[%i] : memref<64xi32>
  }
  affine.for %i = 0 to 64 {
    %a = affine.load %buf[63 - %i] : memref<64xi32>
    %b = arith.addi %a, %a : i32
    affine.store %b, %y[%i] : memref<64xi32>
  }
  return
}

// The consumer reads word i beside word i + 40: a ring of 44 of the 48
// words would serve, but its slot would take a division by 44 on the
// path (46 MHz); the array is kept whole.
// LATE: co-simulation (seed 1): 56 values match, latency 61 cycles
// LATE-R: dataflow: late/0 (from cycle 0), late/1 (from cycle 42) run at once
// LATE-R-NOT: dataflow channel buf
// LATE-R: clock (estimate)
// LATE-R-NOT: modu
func.func @late(%x: memref<48xi32> {hls.name = "x"}, %y: memref<8xi32> {hls.name = "y"}) attributes {hls.dataflow = true} {
  %buf = memref.alloc() {hls.name = "buf"} : memref<48xi32>
  affine.for %i = 0 to 48 {
    %a = affine.load %x[%i] : memref<48xi32>
    %b = arith.muli %a, %a : i32
    affine.store %b, %buf[%i] : memref<48xi32>
  }
  affine.for %i = 0 to 8 {
    %a = affine.load %buf[%i] : memref<48xi32>
    %b = affine.load %buf[%i + 40] : memref<48xi32>
    %c = arith.subi %b, %a : i32
    affine.store %c, %y[%i] : memref<8xi32>
  } {hls.pipeline = 2}
  return
}

// OVER: co-simulation (seed 1): 320 values match, latency 307 cycles
// OVER: note: dataflow: the loop nests run at once (307 cycles; one after another, 322)
// OVER-R: dataflow: overtake/0 (from cycle 0), overtake/1 (from cycle 288), overtake/2 (from cycle 0) run at once
func.func @overtake(%x: memref<16x16xi32> {hls.name = "x"}, %s: memref<16xi32> {hls.name = "s"},
                    %t: memref<16xi32> {hls.name = "t"}, %y: memref<16xi32> {hls.name = "y"},
                    %z: memref<16xi32> {hls.name = "z"}) attributes {hls.dataflow = true} {
  %zero = arith.constant 0 : i32
  %three = arith.constant 3 : i32
  affine.for %i = 0 to 16 {
    %sum = affine.for %j = 0 to 16 iter_args(%acc = %zero) -> i32 {
      %a = affine.load %x[%i, %j] : memref<16x16xi32>
      %n = arith.addi %acc, %a : i32
      affine.yield %n : i32
    }
    affine.store %sum, %s[%i] : memref<16xi32>
  }
  affine.for %i = 0 to 16 {
    %a = affine.load %s[15 - %i] : memref<16xi32>
    affine.store %a, %t[%i] : memref<16xi32>
  }
  affine.for %i = 0 to 16 {
    %a = affine.load %y[%i] : memref<16xi32>
    %m = arith.muli %a, %three : i32
    affine.store %m, %z[%i] : memref<16xi32>
  }
  return
}
