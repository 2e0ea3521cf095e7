// Packed memories behind the AXI wrapper: `width = N` packs N elements
// into a word of the core's ports, of the wrapper's on-chip RAM (a write
// port's mask has a bit a lane) and of a beat of the AXI master, whose
// data bus follows the widest packed word (at least 64 bits; here 128
// with --max-port-bits 128). A word's elements lie side by side in host
// memory, so a beat's size is the word's bytes: a power of two, which is
// why the wrapper takes widths of powers of two only. Elements narrower
// than their bytes in host memory (i12 in two bytes) are repacked lane by
// lane, and the last word of a memref its elements do not fill is written
// with only their bytes' strobes (the memory model fails a write past a
// memref's last byte). Each design is co-simulated through its AXI ports
// against the memory model (random stalls, protocol checks).
// RUN: rm -rf %t.v %t.o %t.n %t.t %t.auto %t.sys %t.sys0
// RUN: silica hls %s --top vadd -o %t.v --interface axi --max-port-bits 128 --sim | FileCheck %s --check-prefix=VADD
// RUN: FileCheck %s --check-prefix=JSON < %t.v/vadd.json
// RUN: FileCheck %s --check-prefix=HEADER < %t.v/vadd.h
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module vadd_axi %t.v/vadd.sv
// RUN: yosys -q -p "read_verilog -sv %t.v/vadd.sv; synth_ecp5 -top vadd_axi"
// RUN: silica hls %s --top odd -o %t.o --interface axi --sim | FileCheck %s --check-prefix=ODD
// RUN: FileCheck %s --check-prefix=ODD-JSON < %t.o/odd.json
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module odd_axi %t.o/odd.sv
// RUN: silica hls %s --top vadd -o %t.n --interface axi --sim 2>&1 | FileCheck %s --check-prefix=NARROW
// RUN: silica hls %s --top three -o %t.t --interface axi --sim 2>&1 | FileCheck %s --check-prefix=THREE
// An `--auto` design over AXI: the search packs every array 4 elements a
// 128-bit word; its directives file rebuilds it in the program's system
// co-simulation (`silica cosim --directives`), which takes fewer cycles
// than the default design's.
// RUN: silica hls %s --top blend --auto --interface axi --max-port-bits 128 -o %t.auto | FileCheck %s --check-prefix=AUTO
// RUN: FileCheck %s --check-prefix=TOML < %t.auto/blend.directives.toml
// RUN: silica cosim %s --kernel blend --directives %t.auto/blend.directives.toml --max-port-bits 128 -o %t.sys > %t.out
// RUN: FileCheck %s --check-prefix=SYS < %t.out
// RUN: FileCheck %s --check-prefix=SYS-BUS < %t.sys/blend.sv
// RUN: silica cosim %s --kernel blend -o %t.sys0 > %t.out0
// RUN: FileCheck %s --check-prefix=SYS < %t.out0
// RUN: wide=$(sed -n 's/^call 1: \([0-9]*\) cycles.*/\1/p' %t.out); \
// RUN: narrow=$(sed -n 's/^call 1: \([0-9]*\) cycles.*/\1/p' %t.out0); \
// RUN: test -n "$wide" && test -n "$narrow" && test $((wide * 3)) -lt "$narrow"

// 40 i32 a 128-bit word: 10 beats a memref.
// VADD: co-simulation (seed 1): 120 values match
// VADD: axi: 3 read bursts, 1 write bursts, 640 bytes, 0 error responses
// VADD: a: width = 4 (attribute): honoured: 4 elements a word: 10 words of 128 bits
// JSON: "master_data_width": 128
// JSON: "name": "a",
// JSON: "words": 10,
// JSON: "lanes": 4
// HEADER: #define VADD_MASTER_DATA_WIDTH 128
func.func @vadd(%a: memref<40xi32> {hls.name = "a", hls.width = 4},
                %b: memref<40xi32> {hls.name = "b", hls.width = 4},
                %c: memref<40xi32> {hls.name = "c", hls.width = 4}) {
  affine.for %i = 0 to 40 {
    %x = affine.load %a[%i] : memref<40xi32>
    %y = affine.load %b[%i] : memref<40xi32>
    %s = arith.addi %x, %y : i32
    affine.store %s, %c[%i] : memref<40xi32>
  } {hls.unroll = 4}
  return
}

// 15 i12 elements, 4 a word (48 bits in the RAM, 8 bytes in host
// memory): 4 words, the last of 3 elements, read and written in place.
// ODD: co-simulation (seed 1): 15 values match
// ODD: axi: 1 read bursts, 1 write bursts, 64 bytes, 0 error responses
// ODD: a: width = 4 (attribute): honoured: 4 elements a word: 4 words of 48 bits
// ODD-JSON: "master_data_width": 64
func.func @odd(%a: memref<3x5xi12> {hls.name = "a", hls.width = 4}) {
  %c = arith.constant -3 : i12
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 5 {
      %x = affine.load %a[%i, %j] : memref<3x5xi12>
      %y = arith.muli %x, %c : i12
      affine.store %y, %a[%i, %j] : memref<3x5xi12>
    }
  }
  return
}

// Without --max-port-bits, a port is 64 bits: 2 i32 a word.
// NARROW: width = 4 on a is not honoured: 4 elements of 32 bits do not fit a word of at most 64 bits (--max-port-bits) and 64 elements: width 2 used
// NARROW: co-simulation (seed 1): 120 values match

// Three i16 (6 bytes) are no beat: two.
// THREE: width = 3 on a is not honoured: the AXI master moves a word as one beat of a power of two of bytes, at most 64 bits: width 2 used
// THREE: co-simulation (seed 1): 12 values match
func.func @three(%a: memref<12xi16> {hls.name = "a", hls.width = 3}) {
  affine.for %i = 0 to 12 {
    %x = affine.load %a[%i] : memref<12xi16>
    %y = arith.addi %x, %x : i16
    affine.store %y, %a[%i] : memref<12xi16>
  }
  return
}

// AUTO: x: width = 4 (directives file): honoured: 4 elements a word: 16 words of 128 bits
// TOML: --max-port-bits 128 --interface axi
// TOML: name = "x"
// TOML-NEXT: width = 4
// SYS: system co-simulation of 'blend': 64 lines of output identical
// SYS-BUS: output [127:0] m_axi_gmem_wdata,

llvm.mlir.global internal constant @fmt_word("%d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// z[i] = x[i] * 3 + y[i] * y[i]
func.func @blend(%x: memref<64xi32> {hls.name = "x"}, %y: memref<64xi32> {hls.name = "y"},
                 %z: memref<64xi32> {hls.name = "z"}) {
  %c3 = arith.constant 3 : i32
  affine.for %i = 0 to 64 {
    %a = affine.load %x[%i] : memref<64xi32>
    %b = affine.load %y[%i] : memref<64xi32>
    %a3 = arith.muli %a, %c3 : i32
    %bb = arith.muli %b, %b : i32
    %s = arith.addi %a3, %bb : i32
    affine.store %s, %z[%i] : memref<64xi32>
  }
  return
}

func.func @main() -> i32 {
  %x = memref.alloc() : memref<64xi32>
  %y = memref.alloc() : memref<64xi32>
  %z = memref.alloc() : memref<64xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %k = arith.constant -7919 : i32
  %m = arith.constant 104729 : i32
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %xv = arith.muli %ii, %k : i32
    %yv = arith.subi %m, %xv : i32
    memref.store %xv, %x[%i] : memref<64xi32>
    memref.store %yv, %y[%i] : memref<64xi32>
  }
  func.call @blend(%x, %y, %z) : (memref<64xi32>, memref<64xi32>, memref<64xi32>) -> ()
  %g = llvm.mlir.addressof @fmt_word : !llvm.ptr
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %z[%i] : memref<64xi32>
    %q = llvm.call @printf(%g, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  }
  %zz = arith.constant 0 : i32
  return %zz : i32
}
