// Flatten of imperfect nests: the code around an inner loop is sunk into
// the flattened body, its stores under the first/last-iteration
// condition of the loops inside it. gemm's k/j nest (a load of A and a
// product before the j loop), a matrix product whose innermost loop
// carries the sum (iter_args, reset where k starts) and stores it after
// the loop, an init-store before a read-modify-write inner loop (also
// with its copies jammed), and 2mm's scaling before its sum each become
// one pipeline; on one port of the scaled memory too, its load and store
// sharing the port's slot. Co-simulated bit for bit, lint clean,
// accepted by yosys.
// RUN: rm -rf %t.g %t.m %t.i %t.j %t.s %t.o %t.r
// RUN: silica hls %s --top gemm -o %t.g --sim | FileCheck %s --check-prefix=GEMM
// RUN: verilator --lint-only -Wall %t.g/gemm.sv
// RUN: yosys -q -p "read_verilog -sv %t.g/gemm.sv; synth_ice40 -dsp -top gemm"
// RUN: silica hls %s --top mm -o %t.m --sim | FileCheck %s --check-prefix=MM
// RUN: verilator --lint-only -Wall %t.m/mm.sv
// RUN: yosys -q -p "read_verilog -sv %t.m/mm.sv; synth_ice40 -dsp -top mm"
// RUN: silica hls %s --top init -o %t.i --sim | FileCheck %s --check-prefix=INIT
// RUN: verilator --lint-only -Wall %t.i/init.sv
// RUN: yosys -q -p "read_verilog -sv %t.i/init.sv; synth_ice40 -dsp -top init"
// RUN: silica hls %s --top jammed -o %t.j --sim | FileCheck %s --check-prefix=JAM
// RUN: verilator --lint-only -Wall %t.j/jammed.sv
// RUN: yosys -q -p "read_verilog -sv %t.j/jammed.sv; synth_ice40 -dsp -top jammed"
// RUN: silica hls %s --top scaled -o %t.s --sim | FileCheck %s --check-prefix=SCALED
// RUN: verilator --lint-only -Wall %t.s/scaled.sv
// RUN: yosys -q -p "read_verilog -sv %t.s/scaled.sv; synth_ice40 -dsp -top scaled"
// RUN: silica hls %s --top one_port -o %t.o --sim | FileCheck %s --check-prefix=ONE
// RUN: verilator --lint-only -Wall %t.o/one_port.sv
// RUN: yosys -q -p "read_verilog -sv %t.o/one_port.sv; synth_ice40 -dsp -top one_port"
// RUN: silica hls %s --top row_sums -o %t.r --sim | FileCheck %s --check-prefix=ROWS
// RUN: verilator --lint-only -Wall %t.r/row_sums.sv
// RUN: yosys -q -p "read_verilog -sv %t.r/row_sums.sv; synth_ice40 -dsp -top row_sums"

// GEMM: co-simulation (seed 1): 192 values match, latency 1185 cycles
// GEMM: gemm/i/k: trip 64 (flattened with gemm/i/k/j), pipelined, II 2 (ResMII 2, RecMII 1), depth 4
// GEMM: gemm/i/k: flatten (attribute): honoured: gemm/i/k/j folded into it: one counter chain, one pipeline, the code around the inner loops sunk into it under first/last-iteration conditions
func.func @gemm(%alpha: i32 {hls.name = "alpha"}, %beta: i32 {hls.name = "beta"},
                %C: memref<8x8xi32> {hls.name = "C"},
                %A: memref<8x8xi32> {hls.name = "A"},
                %B: memref<8x8xi32> {hls.name = "B"}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %c = affine.load %C[%i, %j] : memref<8x8xi32>
      %cb = arith.muli %c, %beta : i32
      affine.store %cb, %C[%i, %j] : memref<8x8xi32>
    } {hls.label = "scale"}
    affine.for %k = 0 to 8 {
      %a = affine.load %A[%i, %k] : memref<8x8xi32>
      %aa = arith.muli %alpha, %a : i32
      affine.for %j = 0 to 8 {
        %b = affine.load %B[%k, %j] : memref<8x8xi32>
        %c = affine.load %C[%i, %j] : memref<8x8xi32>
        %p = arith.muli %aa, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<8x8xi32>
      } {hls.label = "j"}
    } {hls.label = "k", hls.flatten}
  } {hls.label = "i"}
  return
}

// MM: co-simulation (seed 1): 192 values match, latency 515 cycles
// MM: mm/0: trip 512 (flattened with mm/0/0, mm/0/0/0), pipelined, II 1 (ResMII 1, RecMII 1), depth 3
func.func @mm(%A: memref<8x8xi32>, %B: memref<8x8xi32>, %C: memref<8x8xi32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %z = arith.constant 0 : i32
      %r = affine.for %k = 0 to 8 iter_args(%acc = %z) -> (i32) {
        %a = affine.load %A[%i, %k] : memref<8x8xi32>
        %b = affine.load %B[%k, %j] : memref<8x8xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %acc, %p : i32
        affine.yield %s : i32
      }
      %r2 = arith.addi %r, %r : i32
      affine.store %r2, %C[%i, %j] : memref<8x8xi32>
    }
  } {hls.flatten}
  return
}

// The read-modify-write of C[i][j] in the k loop is held in a register
// (front/promote.rs), its first value the zero stored before the loop:
// II 1, where the recurrence through memory made it 3.
// INIT: co-simulation (seed 1): 192 values match, latency 515 cycles
// INIT: init/0: trip 512 (flattened with init/0/0, init/0/0/0), pipelined, II 1 (ResMII 1, RecMII 1), depth 3
func.func @init(%A: memref<8x8xi32>, %B: memref<8x8xi32>, %C: memref<8x8xi32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %z = arith.constant 0 : i32
      affine.store %z, %C[%i, %j] : memref<8x8xi32>
      affine.for %k = 0 to 8 {
        %a = affine.load %A[%i, %k] : memref<8x8xi32>
        %b = affine.load %B[%k, %j] : memref<8x8xi32>
        %c = affine.load %C[%i, %j] : memref<8x8xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<8x8xi32>
      }
    }
  } {hls.flatten}
  return
}

// The same product with its j loop jammed by 2: the two copies' zeros
// are stored one after the other before the k loop, and each is still
// the first value of its register, so no load stays before the loop.
// JAM: co-simulation (seed 1): 192 values match, latency 259 cycles
// JAM: jammed/0: trip 256 (flattened with jammed/0/0, jammed/0/0/0), pipelined, II 1 (ResMII 1, RecMII 1), depth 3
func.func @jammed(%A: memref<8x8xi32>, %B: memref<8x8xi32> {hls.ports = 2}, %C: memref<8x8xi32> {hls.ports = 2}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %z = arith.constant 0 : i32
      affine.store %z, %C[%i, %j] : memref<8x8xi32>
      affine.for %k = 0 to 8 {
        %a = affine.load %A[%i, %k] : memref<8x8xi32>
        %b = affine.load %B[%k, %j] : memref<8x8xi32>
        %c = affine.load %C[%i, %j] : memref<8x8xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<8x8xi32>
      }
    } {hls.jam = 2}
  } {hls.flatten}
  return
}

// 2mm's second product: D[i][j] scaled before the k loop adds into it.
// The scaled element, loaded before the loop from memory the nest
// writes, only starts the sum (the register's first value, taken where
// k starts), so the nest still flattens; the store after the loop never
// meets the element a later iteration loads (the exact dependence
// analysis), so II 1 on D's two ports.
// SCALED: co-simulation (seed 1): 192 values match, latency 515 cycles
// SCALED: scaled/0: trip 512 (flattened with scaled/0/0, scaled/0/0/0), pipelined, II 1 (ResMII 1, RecMII 1), depth 3
func.func @scaled(%beta: i32, %T: memref<8x8xi32>, %B: memref<8x8xi32>, %D: memref<8x8xi32> {hls.ports = 2}) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %d = affine.load %D[%i, %j] : memref<8x8xi32>
      %db = arith.muli %d, %beta : i32
      affine.store %db, %D[%i, %j] : memref<8x8xi32>
      affine.for %k = 0 to 8 {
        %t = affine.load %T[%i, %k] : memref<8x8xi32>
        %b = affine.load %B[%k, %j] : memref<8x8xi32>
        %c = affine.load %D[%i, %j] : memref<8x8xi32>
        %p = arith.muli %t, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %D[%i, %j] : memref<8x8xi32>
      }
    }
  } {hls.flatten}
  return
}

// The same product on one port of D: the load of D[i][j] runs only
// where k starts (its value only starts the sum), the store only where
// k ends. They meet in a cycle only where the load's iteration is one
// after the store's, modulo 8; two apart, they share a slot of the
// port: II 1, where counting the accesses gives 2.
// ONE: co-simulation (seed 1): 192 values match, latency 515 cycles
// ONE: one_port/0: trip 512 (flattened with one_port/0/0, one_port/0/0/0), pipelined, II 1 (ResMII 1, RecMII 1), depth 3
func.func @one_port(%beta: i32, %T: memref<8x8xi32>, %B: memref<8x8xi32>, %D: memref<8x8xi32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %d = affine.load %D[%i, %j] : memref<8x8xi32>
      %db = arith.muli %d, %beta : i32
      affine.store %db, %D[%i, %j] : memref<8x8xi32>
      affine.for %k = 0 to 8 {
        %t = affine.load %T[%i, %k] : memref<8x8xi32>
        %b = affine.load %B[%k, %j] : memref<8x8xi32>
        %c = affine.load %D[%i, %j] : memref<8x8xi32>
        %p = arith.muli %t, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %D[%i, %j] : memref<8x8xi32>
      }
    }
  } {hls.flatten}
  return
}

// Sums without products: the store could follow the load a step later,
// one iteration apart, where the two meet at every end of a row; it
// waits a step more (step 1 left empty, depth 3 where two ports give 2).
// ROWS: co-simulation (seed 1): 128 values match, latency 515 cycles
// ROWS: row_sums/0: trip 512 (flattened with row_sums/0/0, row_sums/0/0/0), pipelined, II 1 (ResMII 1, RecMII 1), depth 3
// ROWS: schedule of row_sums/0
// ROWS-NEXT: 0: {{.*}}load{{.*}}load
// ROWS-NEXT: 1: {{$}}
// ROWS-NEXT: 2: {{.*}}store
func.func @row_sums(%T: memref<8x8xi32>, %D: memref<8x8xi32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %d = affine.load %D[%i, %j] : memref<8x8xi32>
      %dd = arith.addi %d, %d : i32
      affine.store %dd, %D[%i, %j] : memref<8x8xi32>
      affine.for %k = 0 to 8 {
        %t = affine.load %T[%j, %k] : memref<8x8xi32>
        %c = affine.load %D[%i, %j] : memref<8x8xi32>
        %s = arith.addi %c, %t : i32
        affine.store %s, %D[%i, %j] : memref<8x8xi32>
      }
    }
  } {hls.flatten}
  return
}
