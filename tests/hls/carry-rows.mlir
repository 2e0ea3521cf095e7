// A 3x3 convolution of i16 pipelined on its row loop i, the column
// loop and the window unrolled (`pipeline = true` on i): each iteration
// computes whole output rows, and the window's rows it shares with the
// next iteration pass on in registers (carry.rs), so each element of
// I is read once, four to a word. rows: two rows an iteration
// (`unroll = 2`): a row of 6 outputs fills O's words of 4 only in part,
// and lands on different lanes in even and odd rows; two rows fill 3
// words whole, the 108 products shared on the device's 28 multipliers
// (II 4). row: one row an iteration, its 6 stores one a cycle (II 6).
// RUN: rm -rf %t.r %t.o
// RUN: silica hls %s --top rows --target ecp5-25k -o %t.r --sim | FileCheck %s --check-prefix=ROWS
// RUN: FileCheck %s --check-prefix=ROWS-REPORT < %t.r/report.txt
// RUN: verilator --lint-only -Wall %t.r/rows.sv
// RUN: yosys -q -p "read_verilog -sv %t.r/rows.sv; synth_ecp5 -top rows"
// RUN: silica hls %s --top row --target ecp5-25k -o %t.o --sim | FileCheck %s --check-prefix=ROW

// ROWS: co-simulation (seed 1): 109 values match, latency 21 cycles
// ROWS: rows/0: trip 3, pipelined, II 4 (ResMII 4, RecMII 1)
// ROWS-REPORT: note: loads carried across iterations (rotating registers): rows/0: 41 -> 25 loads per iteration, 16 element(s) carried
func.func @rows(%I: memref<8x8xi16> {hls.name = "I", hls.width = 4},
                %W: memref<3x3xi16> {hls.name = "W", hls.width = 4},
                %O: memref<6x6xi16> {hls.name = "O", hls.width = 4}) {
  %zero = arith.constant 0 : i16
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 6 {
      %sum = affine.for %p = 0 to 3 iter_args(%a = %zero) -> i16 {
        %row = affine.for %q = 0 to 3 iter_args(%b = %a) -> i16 {
          %x = affine.load %I[%i + %p, %j + %q] : memref<8x8xi16>
          %w = affine.load %W[%p, %q] : memref<3x3xi16>
          %m = arith.muli %x, %w : i16
          %s = arith.addi %b, %m : i16
          affine.yield %s : i16
        }
        affine.yield %row : i16
      }
      affine.store %sum, %O[%i, %j] : memref<6x6xi16>
    }
  } {hls.pipeline = true, hls.unroll = 2}
  return
}

// ROW: co-simulation (seed 1): 109 values match, latency 47 cycles
// ROW: row/0: trip 6, pipelined, II 6 (ResMII 6, RecMII 1)
func.func @row(%I: memref<8x8xi16> {hls.name = "I", hls.width = 4},
               %W: memref<3x3xi16> {hls.name = "W", hls.width = 4},
               %O: memref<6x6xi16> {hls.name = "O", hls.width = 4}) {
  %zero = arith.constant 0 : i16
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 6 {
      %sum = affine.for %p = 0 to 3 iter_args(%a = %zero) -> i16 {
        %row = affine.for %q = 0 to 3 iter_args(%b = %a) -> i16 {
          %x = affine.load %I[%i + %p, %j + %q] : memref<8x8xi16>
          %w = affine.load %W[%p, %q] : memref<3x3xi16>
          %m = arith.muli %x, %w : i16
          %s = arith.addi %b, %m : i16
          affine.yield %s : i16
        }
        affine.yield %row : i16
      }
      affine.store %sum, %O[%i, %j] : memref<6x6xi16>
    }
  } {hls.pipeline = true}
  return
}
