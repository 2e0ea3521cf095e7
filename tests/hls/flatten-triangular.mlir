// Flatten of a triangular nest: the inner loop's upper bound is over the
// counter around it (j <= i), and the counter chain wraps j where it
// reaches i + 1; the nest runs as one pipeline of 1 + 2 + ... + 8 = 36
// iterations. A nest whose inner loop runs no iteration at some value of
// the counter around it (j < i, none at i = 0) is not flattened: the
// chain would step into it. syrk's row, its scaling by beta folded into
// C's copy and its k loop jammed fully, flattens too, and with dataflow
// the copy (a multiplier of its own) runs beside the body (three of the
// others): the body starts at cycle 15, before the copy's 64 words are
// in (on three multipliers in all, it waits for the copy: cycle 64).
// Co-simulated bit for bit, lint clean, accepted by yosys.
// RUN: rm -rf %t.t %t.e %t.s
// RUN: silica hls %s --top lower -o %t.t --sim | FileCheck %s --check-prefix=TRI
// RUN: verilator --lint-only -Wall %t.t/lower.sv
// RUN: yosys -q -p "read_verilog -sv %t.t/lower.sv; synth_ice40 -dsp -top lower"
// RUN: silica hls %s --top empty_row -o %t.e | FileCheck %s --check-prefix=EMPTY
// RUN: silica hls %s --top syrk -o %t.s --sim --target ecp5-25k --directives %S/directives/flatten-triangular.toml | FileCheck %s --check-prefix=SYRK
// RUN: verilator --lint-only -Wall %t.s/syrk.sv
// RUN: yosys -q -p "read_verilog -sv %t.s/syrk.sv; synth_ecp5 -top syrk"

// TRI: co-simulation (seed 1): {{[0-9]+}} values match
// TRI: lower/i: trip 36 (flattened with lower/i/j), pipelined, II 2
// TRI: lower/i: flatten (attribute): honoured: lower/i/j folded into it: one counter chain, one pipeline
func.func @lower(%A: memref<8xi32> {hls.name = "A"}, %C: memref<8x8xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %a = affine.load %A[%i] : memref<8xi32>
      %b = affine.load %A[%j] : memref<8xi32>
      %p = arith.muli %a, %b : i32
      affine.store %p, %C[%i, %j] : memref<8x8xi32>
    } {hls.label = "j"}
  } {hls.label = "i", hls.flatten}
  return
}

// EMPTY: empty_row/i: flatten (attribute): not honoured: empty_row/i/j runs no iteration at some values of the counters around it
func.func @empty_row(%A: memref<8xi32> {hls.name = "A"}, %C: memref<8x8xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %a = affine.load %A[%i] : memref<8xi32>
      %b = affine.load %A[%j] : memref<8xi32>
      %p = arith.addi %a, %b : i32
      affine.store %p, %C[%i, %j] : memref<8x8xi32>
    } {hls.label = "j"}
  } {hls.label = "i", hls.flatten}
  return
}

// SYRK: co-simulation (seed 1): {{[0-9]+}} values match
// SYRK: dataflow: syrk/copy_in (from cycle 0), syrk/0 (from cycle 15), syrk/copy_out
// SYRK: syrk/0: trip 36 (flattened with syrk/0/1), pipelined
func.func @syrk(%alpha: i32 {hls.name = "alpha"}, %beta: i32 {hls.name = "beta"},
    %C: memref<8x8xi32> {hls.name = "C"}, %A: memref<8x4xi32> {hls.name = "A"}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %c = affine.load %C[%i, %j] : memref<8x8xi32>
      %s = arith.muli %c, %beta : i32
      affine.store %s, %C[%i, %j] : memref<8x8xi32>
    }
    affine.for %k = 0 to 4 {
      affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
        %c = affine.load %C[%i, %j] : memref<8x8xi32>
        %a = affine.load %A[%i, %k] : memref<8x4xi32>
        %aa = arith.muli %alpha, %a : i32
        %b = affine.load %A[%j, %k] : memref<8x4xi32>
        %p = arith.muli %aa, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<8x8xi32>
      }
    }
  }
  return
}
