// `silica hls --auto`: the flow derives a space from the kernel (port
// widths, on-chip buffers for reused memories, unroll factors, flattening),
// searches it with silica dse's engine and builds the fastest design that
// fits the target. The directives file it writes rebuilds the identical
// design; every design is co-simulated bit for bit.
// RUN: rm -rf %t.g %t.gd %t.s %t.sd %t.f %t.fd %t.n %t.ds %t.big %t.dg %t.dgd
// RUN: silica hls %s --top doitgen -o %t.dg --auto --sim 2>/dev/null | FileCheck %s --check-prefix=DOITGEN
// RUN: silica hls %s --top doitgen -o %t.dgd --directives %t.dg/doitgen.directives.toml
// RUN: diff %t.dg/doitgen.sv %t.dgd/doitgen.sv
// RUN: FileCheck %s --check-prefix=DOITGEN-FILE < %t.dg/doitgen.directives.toml
// RUN: silica hls %s --top gemm -o %t.g --auto --sim 2>/dev/null | FileCheck %s --check-prefix=GEMM
// RUN: silica hls %s --top gemm -o %t.gd --directives %t.g/gemm.directives.toml
// RUN: diff %t.g/gemm.sv %t.gd/gemm.sv
// RUN: FileCheck %s --check-prefix=GEMM-FILE < %t.g/gemm.directives.toml
// RUN: FileCheck %s --check-prefix=GEMM-REPORT < %t.g/report.txt
// RUN: verilator --lint-only -Wall %t.g/gemm.sv
// RUN: yosys -q -p "read_verilog -sv %t.g/gemm.sv; synth_ecp5 -top gemm"
// RUN: silica hls %s --top saxpy -o %t.s --auto --sim 2>/dev/null | FileCheck %s --check-prefix=SAXPY
// RUN: silica hls %s --top saxpy -o %t.sd --directives %t.s/saxpy.directives.toml
// RUN: diff %t.s/saxpy.sv %t.sd/saxpy.sv
// RUN: silica hls %s --top fir -o %t.f --auto --sim --target ice40-up5k 2>/dev/null | FileCheck %s --check-prefix=FIR
// RUN: silica hls %s --top fir -o %t.fd --target ice40-up5k --directives %t.f/fir.directives.toml
// RUN: diff %t.f/fir.sv %t.fd/fir.sv
// RUN: silica hls %s --top none -o %t.n --auto --sim 2>/dev/null | FileCheck %s --check-prefix=NONE
// RUN: FileCheck %s --check-prefix=NONE-FILE < %t.n/none.directives.toml
// RUN: silica hls %S/../../examples/polybench/mini/syrk.f32.mlir --top syrk -o %t.big --target ice40-up5k --auto 2>/dev/null | FileCheck %s --check-prefix=BIG
// RUN: silica dse %s --top saxpy -o %t.ds 2>&1 | FileCheck %s --check-prefix=DSE
// RUN: diff %t.s/saxpy.space.toml %t.ds/space.toml

// A product reuses every element of A and B eight times: both are
// buffered on chip, the inner loop unrolled to the multipliers.
// GEMM: auto: {{[0-9]+}} of the {{[0-9]+}} point(s) of the derived space evaluated in {{.*}} (the default design: [[BASE:[0-9]+]] cycles
// GEMM: A: buffered, 512 accesses of 64 elements
// GEMM: auto: chose point {{[0-9]+}}: [[CYCLES:[0-9]+]] cycles
// GEMM: co-simulation (seed 1): 192 values match, latency [[CYCLES]] cycles
// GEMM: roofline:
// GEMM-FILE: # Chosen by silica hls --auto: [[C:[0-9]+]] cycles
// GEMM-FILE: buffer = true
// GEMM-FILE: unroll =
// GEMM-REPORT: auto: chose point
// GEMM-REPORT: silica hls report: gemm
func.func @gemm(%A: memref<8x8xi16> {hls.name = "A"}, %B: memref<8x8xi16> {hls.name = "B"},
                %C: memref<8x8xi16> {hls.name = "C"}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 8 {
        %a = affine.load %A[%i, %k] : memref<8x8xi16>
        %b = affine.load %B[%k, %j] : memref<8x8xi16>
        %c = affine.load %C[%i, %j] : memref<8x8xi16>
        %p = arith.muli %a, %b : i16
        %s = arith.addi %c, %p : i16
        affine.store %s, %C[%i, %j] : memref<8x8xi16>
      }
    }
  }
  return
}

// A stream reads each element once: its ports widen to four i16 lanes,
// the loop unrolled to match; nothing is buffered.
// SAXPY: auto: chose point {{[0-9]+}}: [[CYCLES:[0-9]+]] cycles
// SAXPY: co-simulation (seed 1): 192 values match, latency [[CYCLES]] cycles
func.func @saxpy(%a: i16 {hls.name = "a"}, %x: memref<64xi16> {hls.name = "x"},
                 %y: memref<64xi16> {hls.name = "y"}, %z: memref<64xi16> {hls.name = "z"}) {
  affine.for %i = 0 to 64 {
    %u = affine.load %x[%i] : memref<64xi16>
    %v = affine.load %y[%i] : memref<64xi16>
    %p = arith.muli %a, %u : i16
    %s = arith.addi %p, %v : i16
    affine.store %s, %z[%i] : memref<64xi16>
  }
  return
}

// A filter reads each sample four times: x is buffered; on the iCE40's
// eight multipliers.
// FIR: auto: chose point {{[0-9]+}}: [[CYCLES:[0-9]+]] cycles
// FIR: co-simulation (seed 1): {{[0-9]+}} values match, latency [[CYCLES]] cycles
func.func @fir(%x: memref<35xi16> {hls.name = "x"}, %h: memref<4xi16> {hls.name = "h"},
               %y: memref<32xi16> {hls.name = "y"}) {
  affine.for %i = 0 to 32 {
    %z = arith.constant 0 : i16
    %r = affine.for %k = 0 to 4 iter_args(%acc = %z) -> i16 {
      %a = affine.load %x[%i + %k] : memref<35xi16>
      %b = affine.load %h[%k] : memref<4xi16>
      %p = arith.muli %a, %b : i16
      %s = arith.addi %acc, %p : i16
      affine.yield %s : i16
    }
    affine.store %r, %y[%i] : memref<32xi16>
  }
  return
}

// Straight-line code over 64-bit elements: no loop to unroll, no port to
// widen, nothing reused.
// NONE: auto: the kernel offers nothing to parallelise
// NONE: co-simulation (seed 1): 3 values match
// NONE-FILE: # silica hls --auto kept the default design
func.func @none(%a: memref<2xi64> {hls.name = "a"}, %b: memref<1xi64> {hls.name = "b"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %a[%c0] : memref<2xi64>
  %y = memref.load %a[%c1] : memref<2xi64>
  %p = arith.muli %x, %y : i64
  memref.store %p, %b[%c0] : memref<1xi64>
  return
}

// syrk of floats on the UP5K: every point of its derived space (its
// arrays buffered, jammed by 10, 5 or not) needs several times its 5280
// LUTs by the estimate; the default design (itself fitted) is kept.
// BIG: auto: no point of the derived space fits the device; the default design is kept

// silica dse without --space explores the same derived space.
// DSE: the space derived from the kernel, in {{.*}}space.toml:
// DSE: x: width 4 (the elements of 16 bits a 64-bit word holds) or 1

// One loop nest whose buffers are copied in and out: the space has no
// dataflow knob, so the chosen point is tried with its copies and body
// at once, and kept where that is faster (the copy of A back out
// overlaps the body). The directives file asks for it.
// DOITGEN: auto: with dataflow (the buffers' copies and the loops that may run at once, at once): [[CYCLES:[0-9]+]] cycles, without it {{[0-9]+}}
// DOITGEN: auto: chose point {{[0-9]+}}: [[CYCLES]] cycles
// DOITGEN: co-simulation (seed 1): 44 values match, latency [[CYCLES]] cycles
// DOITGEN: note: dataflow: the loop nests run at once
// DOITGEN-FILE: dataflow = true
func.func @doitgen(%A: memref<3x2x4xi32> {hls.name = "A"}, %C4: memref<4x4xi32> {hls.name = "C4"},
    %sum: memref<4xi32> {hls.name = "sum"}) {
  %c0 = arith.constant 0 : i32
  affine.for %r = 0 to 3 {
    affine.for %q = 0 to 2 {
      affine.for %p = 0 to 4 {
        affine.store %c0, %sum[%p] : memref<4xi32>
        affine.for %s = 0 to 4 {
          %v6 = affine.load %sum[%p] : memref<4xi32>
          %v7 = affine.load %A[%r, %q, %s] : memref<3x2x4xi32>
          %v8 = affine.load %C4[%s, %p] : memref<4x4xi32>
          %v9 = arith.muli %v7, %v8 : i32
          %v10 = arith.addi %v6, %v9 : i32
          affine.store %v10, %sum[%p] : memref<4xi32>
        }
      }
      affine.for %p2 = 0 to 4 {
        %v12 = affine.load %sum[%p2] : memref<4xi32>
        affine.store %v12, %A[%r, %q, %p2] : memref<3x2x4xi32>
      }
    }
  }
  return
}
