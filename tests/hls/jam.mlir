// Unroll-and-jam (`jam = N`, front/unroll.rs): a loop's copies fused
// into the loop inside it, so that the inner pipeline runs N of its
// iterations side by side. mm: C[i][j] += A[i][k] * B[k][j] with k
// innermost, a reduction through C[i][j] (promoted to a register); its
// copies are independent only across j. Jammed by 4 on j, the k pipeline
// makes four products an iteration and A[i][k] is read once for all
// four; B's on-chip copy gets four banks for them (buffer.rs counts the
// jam's copies like an unroll's): 769 -> 353 cycles. skew: i carries a dependence
// (A[i + 1][j] reads what A[i][j + 1] wrote one i iteration earlier,
// one j iteration later) that running i's iterations side by side in
// the j loop would break: refused, with a warning. Co-simulated bit for
// bit; lint clean; accepted by yosys.
// RUN: rm -rf %t.m %t.p %t.s %t.t %t.r %t.w %t.h
// RUN: silica hls %s --top mm -o %t.p --sim | FileCheck %s --check-prefix=PLAIN
// RUN: silica hls %s --top mm -o %t.m --sim --directives %S/directives/jam.toml | FileCheck %s --check-prefix=MM
// RUN: FileCheck %s --check-prefix=REPORT < %t.m/report.txt
// RUN: verilator --lint-only -Wall %t.m/mm.sv
// RUN: yosys -q -p "read_verilog -sv %t.m/mm.sv; synth_ecp5 -top mm"
// RUN: silica hls %s --top skew -o %t.s --sim 2>&1 | FileCheck %s --check-prefix=SKEW
// RUN: silica hls %s --top triangle -o %t.t --sim | FileCheck %s --check-prefix=TRI
// RUN: FileCheck %s --check-prefix=TRI-REPORT < %t.t/report.txt
// RUN: silica hls %s --top rows -o %t.r --sim | FileCheck %s --check-prefix=ROWS
// RUN: silica hls %s --top rows -o %t.r --sim --directives %S/directives/jam-rows.toml | FileCheck %s --check-prefix=ROWS-JAM
// RUN: FileCheck %s --check-prefix=ROWS-REPORT < %t.r/report.txt
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME --top-module rows %t.r/rows.sv
// RUN: silica hls %s --top swap -o %t.w --sim 2>&1 | FileCheck %s --check-prefix=SWAP
// RUN: yosys -q -p "read_verilog -sv %t.w/swap.sv; synth_ecp5 -top swap"
// RUN: silica hls %s --top hidden -o %t.h --sim 2>&1 | FileCheck %s --check-prefix=HIDDEN

// PLAIN: co-simulation (seed 1): 192 values match, latency 769 cycles
// MM: co-simulation (seed 1): 192 values match, latency 353 cycles
// REPORT: mm/i/j/k: trip 8, pipelined, II 1
// REPORT: B_buf: partition cyclic dim 2 factor 4 (derived)
// REPORT: mm/i/j: jam 4 (directives file): honoured: 4 iterations side by side in the loops inside
func.func @mm(%A: memref<8x8xi32> {hls.name = "A"},
              %B: memref<8x8xi32> {hls.name = "B"},
              %C: memref<8x8xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 8 {
        %a = affine.load %A[%i, %k] : memref<8x8xi32>
        %b = affine.load %B[%k, %j] : memref<8x8xi32>
        %c = affine.load %C[%i, %j] : memref<8x8xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<8x8xi32>
      } {hls.label = "k"}
    } {hls.label = "j"}
  } {hls.label = "i"}
  return
}

// SKEW: warning: jam 2 on skew/0 is not honoured: it carries a memory dependence that its copies, side by side in the loops inside, would break
// SKEW: co-simulation (seed 1): 81 values match
func.func @skew(%A: memref<9x9xi32> {hls.name = "A"}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j + 1] : memref<9x9xi32>
      %b = arith.addi %a, %a : i32
      affine.store %b, %A[%i + 1, %j] : memref<9x9xi32>
    }
  } {hls.jam = 2}
  return
}

// triangle: trmm's shape. k starts past i, so on the last i it runs no
// iteration; jammed by 2 on j, its two B[i][j], B[i][j + 1] are held in
// registers across k (scalar promotion), and the stores after the loop
// address them from the invariant subscripts (not from the body's index
// arithmetic, which has no value when the loop ran no iteration).
// TRI: co-simulation (seed 1): 84 values match
// TRI-REPORT: triangle/0/0: jam 2 (attribute): honoured
func.func @triangle(%A: memref<6x6xi32> {hls.name = "A"}, %B: memref<6x8xi32> {hls.name = "B"}) {
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 8 {
      affine.for %k = affine_map<(d0) -> (d0 + 1)>(%i) to 6 {
        %b = affine.load %B[%i, %j] : memref<6x8xi32>
        %a = affine.load %A[%k, %i] : memref<6x6xi32>
        %c = affine.load %B[%k, %j] : memref<6x8xi32>
        %p = arith.muli %a, %c : i32
        %s = arith.addi %b, %p : i32
        affine.store %s, %B[%i, %j] : memref<6x8xi32>
      }
    } {hls.jam = 2}
  }
  return
}

// rows: atax's row loop, two loops inside it: a float sum along the row,
// then an update in place of every element of y from it. Each sum waits
// on its adder's latency an iteration; jammed by 3, three rows' sums run
// side by side, and the update's copies add into y[j] one after another,
// as the rows did (y[j]'s dependence goes from the update to itself, a
// row later, at the same j: kept): 334 -> 151 cycles, bit for bit as
// the software.
// ROWS: co-simulation (seed 1): 70 values match, latency 334 cycles
// ROWS-JAM: co-simulation (seed 1): 70 values match, latency 151 cycles
// ROWS-REPORT: rows/0: jam 3 (directives file): honoured: 3 iterations side by side in the loops inside
func.func @rows(%A: memref<6x8xf32> {hls.name = "A"}, %x: memref<8xf32> {hls.name = "x"},
                %y: memref<8xf32> {hls.name = "y"}, %t: memref<6xf32> {hls.name = "t"}) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 6 {
    affine.store %zero, %t[%i] : memref<6xf32>
    affine.for %j = 0 to 8 {
      %s = affine.load %t[%i] : memref<6xf32>
      %a = affine.load %A[%i, %j] : memref<6x8xf32>
      %b = affine.load %x[%j] : memref<8xf32>
      %p = arith.mulf %a, %b : f32
      %n = arith.addf %s, %p : f32
      affine.store %n, %t[%i] : memref<6xf32>
    }
    affine.for %j = 0 to 8 {
      %v = affine.load %y[%j] : memref<8xf32>
      %a = affine.load %A[%i, %j] : memref<6x8xf32>
      %s = affine.load %t[%i] : memref<6xf32>
      %p = arith.mulf %a, %s : f32
      %n = arith.addf %v, %p : f32
      affine.store %n, %y[%j] : memref<8xf32>
    }
  }
  return
}

// swap: the second loop writes b, which the first reads in the next
// iteration; jammed, the first loop's copies would read b before the
// second's copies wrote it: refused.
// SWAP: warning: jam 2 on swap/0 is not honoured: it carries a memory dependence that its copies, side by side in the loops inside, would break
// SWAP: co-simulation (seed 1): 16 values match
func.func @swap(%a: memref<8xi32> {hls.name = "a"}, %b: memref<8xi32> {hls.name = "b"}) {
  %one = arith.constant 1 : i32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %v = affine.load %b[%j] : memref<8xi32>
      %w = arith.addi %v, %one : i32
      affine.store %w, %a[%j] : memref<8xi32>
    }
    affine.for %j = 0 to 8 {
      %v = affine.load %a[%j] : memref<8xi32>
      %w = arith.addi %v, %v : i32
      affine.store %w, %b[%j] : memref<8xi32>
    }
  } {hls.jam = 2}
  return
}

// hidden: skew's dependence through memref.load and memref.store, whose
// subscripts the dependence analysis does not read: refused (jammed, the
// design computed 46 of the 81 elements wrong).
// HIDDEN: warning: jam 2 on hidden/0 is not honoured: it writes memory that it also accesses through operations whose dependences are not analysed
// HIDDEN: co-simulation (seed 1): 81 values match
func.func @hidden(%A: memref<9x9xi32> {hls.name = "A"}) {
  %c1 = arith.constant 1 : index
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %j1 = arith.addi %j, %c1 : index
      %i1 = arith.addi %i, %c1 : index
      %a = memref.load %A[%i, %j1] : memref<9x9xi32>
      %b = arith.addi %a, %a : i32
      memref.store %b, %A[%i1, %j] : memref<9x9xi32>
    }
  } {hls.jam = 2}
  return
}
