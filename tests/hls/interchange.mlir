// `interchange = true` (front/interchange.rs): a loop swapped with the
// one loop its body holds. cols: the first nest makes X row by row, the
// second reads it column by column (j outer), so at once it waits for
// X's last row (132 cycles, 138 one after another); interchanged, the
// first makes X column by column too and the two run side by side (76). Refused: skew, whose swap would run
// A[i][j] before the A[i - 1][j + 1] it reads; imperfect, whose outer
// body holds a store beside its loop; triangle, whose inner bounds vary
// with the outer counter. Co-simulated bit for bit; lint clean.
// RUN: rm -rf %t.c %t.n %t.r
// RUN: silica hls %s --top cols -o %t.n --sim | FileCheck %s --check-prefix=PLAIN
// RUN: silica hls %s --top cols -o %t.c --sim --directives %S/directives/interchange.toml | FileCheck %s --check-prefix=COLS
// RUN: FileCheck %s --check-prefix=COLS-REPORT < %t.c/report.txt
// RUN: verilator --lint-only -Wall %t.c/cols.sv
// RUN: yosys -q -p "read_verilog -sv %t.c/cols.sv; synth_ecp5 -top cols"
// RUN: silica hls %s --top refused -o %t.r --sim 2>&1 | FileCheck %s --check-prefix=REFUSED

// PLAIN: co-simulation (seed 1): 192 values match, latency 132 cycles
// COLS: co-simulation (seed 1): 192 values match, latency 76 cycles
// COLS-REPORT: note: dataflow: the loop nests run at once (76 cycles; one after another, 138)
// COLS-REPORT: cols/0: interchange (directives file): honoured: swapped with cols/0/0
func.func @cols(%A: memref<8x8xi32> {hls.name = "A"}, %X: memref<8x8xi32> {hls.name = "X"},
                %Y: memref<8x8xi32> {hls.name = "Y"}) attributes {hls.dataflow = true} {
  %two = arith.constant 2 : i32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j] : memref<8x8xi32>
      %x = arith.muli %a, %two : i32
      affine.store %x, %X[%i, %j] : memref<8x8xi32>
    }
  }
  affine.for %j = 0 to 8 {
    affine.for %i = 0 to 8 {
      %x = affine.load %X[%i, %j] : memref<8x8xi32>
      %y = arith.addi %x, %x : i32
      affine.store %y, %Y[%i, %j] : memref<8x8xi32>
    }
  }
  return
}

// REFUSED: warning: interchange on refused/0 is not honoured: it would break a dependence the two loops carry
// REFUSED: warning: interchange on refused/1 is not honoured: its body holds more than the loop inside it
// REFUSED: warning: interchange on refused/2 is not honoured: the bounds of the loop inside it vary with its counter
// REFUSED: co-simulation (seed 1): 153 values match
func.func @refused(%A: memref<9x9xi32> {hls.name = "A"}, %B: memref<8xi32> {hls.name = "B"},
                   %C: memref<8x8xi32> {hls.name = "C"}) {
  %one = arith.constant 1 : i32
  affine.for %i = 1 to 9 {
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i - 1, %j + 1] : memref<9x9xi32>
      %b = arith.addi %a, %one : i32
      affine.store %b, %A[%i, %j] : memref<9x9xi32>
    }
  } {hls.interchange = true}
  affine.for %i = 0 to 8 {
    affine.store %one, %B[%i] : memref<8xi32>
    affine.for %j = 0 to 8 {
      affine.store %one, %C[%i, %j] : memref<8x8xi32>
    }
  } {hls.interchange = true}
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      affine.store %one, %C[%i, %j] : memref<8x8xi32>
    }
  } {hls.interchange = true}
  return
}
