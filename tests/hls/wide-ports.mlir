// Wide memory ports: `width = N` packs N elements of an external memory
// into a word of its ports (`we` a bit a lane), and the accesses of an
// unrolled body that fall in one word become one access. Each design is
// co-simulated bit for bit against the kernel (Verilator, and silica's
// own simulator as a second opinion), linted and synthesised.
// RUN: rm -rf %t.v %t.s %t.c %t.g %t.g3 %t.h %t.n %t.x %t.y %t.a
// RUN: silica hls %s --top vadd -o %t.v --sim | FileCheck %s --check-prefix=VADD
// RUN: FileCheck %s --check-prefix=JSON < %t.v/vadd.json
// RUN: verilator --lint-only -Wall %t.v/vadd.sv
// RUN: yosys -q -p "read_verilog -sv %t.v/vadd.sv; synth_ecp5 -top vadd"
// RUN: silica hls %s --top scale -o %t.s --sim | FileCheck %s --check-prefix=SCALE
// RUN: verilator --lint-only -Wall %t.s/scale.sv
// RUN: silica hls %s --top cond -o %t.c --sim | FileCheck %s --check-prefix=COND
// RUN: verilator --lint-only -Wall %t.c/cond.sv
// RUN: silica hls %s --top gather -o %t.g --sim | FileCheck %s --check-prefix=GATHER
// RUN: verilator --lint-only -Wall %t.g/gather.sv
// RUN: yosys -q -p "read_verilog -sv %t.g/gather.sv; synth_ice40 -dsp -top gather"
// RUN: silica hls %s --top gather3 -o %t.g3 --sim | FileCheck %s --check-prefix=GATHER3
// RUN: verilator --lint-only -Wall %t.g3/gather3.sv
// RUN: silica hls %s --top chain -o %t.h --sim | FileCheck %s --check-prefix=CHAIN
// RUN: silica hls %s --top vadd -o %t.n --max-port-bits 32 --sim | FileCheck %s --check-prefix=NARROW
// RUN: silica hls %s --top refused -o %t.x --sim 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: silica hls %s --top vadd -o %t.a --shell uart 2>&1 | FileCheck %s --check-prefix=SHELL
// RUN: not silica hls %s --top zero -o %t.y 2>&1 | FileCheck %s --check-prefix=ZERO

// Four i16 lanes a 64-bit word: a 4-times unrolled body reads one word
// of a and one of b and writes one word of c a cycle, 16 iterations
// instead of 64.
// VADD: co-simulation (seed 1): 192 values match, latency 19 cycles
// VADD: roofline: compute {{.*}}, memory 16 cycles (16 word(s) of a on 1 port(s) of 4 lane(s)); 84.2% of the bound reached in 19 cycles
// VADD: vadd/0: trip 16, pipelined, II 1
// VADD: a: width = 4 (attribute): honoured: 4 elements a word: 16 words of 64 bits
// VADD: c: width = 4 (attribute): honoured: 4 elements a word: 16 words of 64 bits
func.func @vadd(%a: memref<64xi16> {hls.name = "a", hls.width = 4},
                %b: memref<64xi16> {hls.name = "b", hls.width = 4},
                %c: memref<64xi16> {hls.name = "c", hls.width = 4}) {
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xi16>
    %y = affine.load %b[%i] : memref<64xi16>
    %s = arith.addi %x, %y : i16
    affine.store %s, %c[%i] : memref<64xi16>
  } {hls.unroll = 4}
  return
}

// JSON: "name": "a",
// JSON: "element_width": 16,
// JSON-NEXT: "words": 16,
// JSON-NEXT: "address_width": 4,
// JSON-NEXT: "ports": 1,
// JSON-NEXT: "read_latency": 1,
// JSON-NEXT: "access": "read",
// JSON-NEXT: "lanes": 4

// In place, 10 elements in 3 words (the last half empty), the unrolled
// loop's remainder iterations writing single lanes.
// SCALE: co-simulation (seed 1): 10 values match
// SCALE: a: width = 4 (attribute): honoured: 4 elements a word: 3 words of 32 bits
func.func @scale(%a: memref<10xi8> {hls.name = "a", hls.width = 4}) {
  affine.for %i = 0 to 10 {
    %x = affine.load %a[%i] : memref<10xi8>
    %c = arith.constant 3 : i8
    %y = arith.muli %x, %c : i8
    affine.store %y, %a[%i] : memref<10xi8>
  } {hls.unroll = 4}
  return
}

// Conditional stores write only their lanes: a word of b is written
// with the lanes whose element is positive.
// COND: co-simulation (seed 1): 32 values match, latency 11 cycles
// COND: b: width = 2 (attribute): honoured: 2 elements a word: 8 words of 64 bits
func.func @cond(%a: memref<16xi32> {hls.name = "a", hls.width = 2},
                %b: memref<16xi32> {hls.name = "b", hls.width = 2}) {
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xi32>
    %z = arith.constant 0 : i32
    %p = arith.cmpi sgt, %x, %z : i32
    scf.if %p {
      affine.store %x, %b[%i] : memref<16xi32>
    }
  } {hls.unroll = 2}
  return
}

// Addresses read from memory: the lane is found at run time, and each
// access reads or writes its word alone, in program order.
// GATHER: co-simulation (seed 1): 32 values match
// GATHER: idx: width = 8 (attribute): honoured: 8 elements a word: 1 words of 64 bits
func.func @gather(%a: memref<16xi8> {hls.name = "a", hls.width = 4},
                  %idx: memref<8xi8> {hls.name = "idx", hls.width = 8},
                  %b: memref<8xi8> {hls.name = "b", hls.width = 2}) {
  affine.for %i = 0 to 8 {
    %j = affine.load %idx[%i] : memref<8xi8>
    %k = arith.index_cast %j : i8 to index
    %m = arith.constant 7 : index
    %kk = arith.andi %k, %m : index
    %x = memref.load %a[%kk] : memref<16xi8>
    memref.store %x, %b[%i] : memref<8xi8>
    %y = memref.load %b[%kk] : memref<8xi8>
    memref.store %y, %a[%i] : memref<16xi8>
  }
  return
}

// Three lanes a word (no power of two): a lane found at run time is
// picked by comparisons, a store enables its lane alone.
// GATHER3: co-simulation (seed 1): 24 values match
// GATHER3: a: width = 3 (attribute): honoured: 3 elements a word: 4 words of 48 bits
func.func @gather3(%a: memref<12xi16> {hls.name = "a", hls.width = 3},
                   %b: memref<12xi16> {hls.name = "b"}) {
  affine.for %i = 0 to 12 {
    %j = affine.load %b[%i] : memref<12xi16>
    %k = arith.index_cast %j : i16 to index
    %m = arith.constant 7 : index
    %kk = arith.andi %k, %m : index
    %x = memref.load %a[%kk] : memref<12xi16>
    %y = arith.addi %x, %j : i16
    memref.store %y, %a[%i] : memref<12xi16>
  }
  return
}

// One word read serves a[i] and a[i + 1]; the store to a[i + 3] in one
// iteration feeds the read of a[i + 1] in the next, so the word's read
// waits for it (the combined read keeps the dependences of both loads).
// CHAIN: co-simulation (seed 1): 34 values match
// CHAIN: chain/0: trip 15, pipelined, II 4 (ResMII 2, RecMII 4)
func.func @chain(%a: memref<34xi16> {hls.name = "a", hls.width = 2}) {
  affine.for %i = 0 to 30 step 2 {
    %x0 = affine.load %a[%i] : memref<34xi16>
    %x1 = affine.load %a[%i + 1] : memref<34xi16>
    %s = arith.addi %x0, %x1 : i16
    %t = arith.muli %s, %x1 : i16
    affine.store %t, %a[%i + 3] : memref<34xi16>
  }
  return
}

// A word of at most 32 bits holds two i16 elements: width 4 is cut.
// NARROW: co-simulation (seed 1): 192 values match
// NARROW: a: width = 4 (attribute): not honoured: 4 elements of 16 bits do not fit a word of at most 32 bits (--max-port-bits) and 64 elements: width 2 used

// On-chip arrays have no ports to widen.
// REFUSED: warning: {{.*}}width = 4
// REFUSED: co-simulation (seed 1): 8 values match
// REFUSED: buf: width = 4 (attribute): not honoured: width packs the ports of a whole external memory, and this is an on-chip or partitioned array
func.func @refused(%a: memref<8xi8> {hls.name = "a"}) {
  %buf = memref.alloc() {hls.name = "buf", hls.width = 4} : memref<8xi8>
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i] : memref<8xi8>
    affine.store %x, %buf[%i] : memref<8xi8>
  }
  affine.for %i = 0 to 8 {
    %x = affine.load %buf[7 - %i] : memref<8xi8>
    affine.store %x, %a[%i] : memref<8xi8>
  }
  return
}

// The board shell moves elements one at a time (the AXI wrapper packs
// them: tests/hls/axi-wide.mlir).
// SHELL: a: width = 4 (attribute): not honoured: the board shell moves elements one at a time

// ZERO: error: width must be a number of elements of at least 1, not 0
func.func @zero(%a: memref<8xi8> {hls.name = "a", hls.width = 0}) {
  return
}
