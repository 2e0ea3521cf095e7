// A pipelined loop entered again straight from its own last cycle (the
// enclosing loop's latch re-enters it in the transition that leaves the
// pipeline) starts from its initial values: the last iteration writes
// its carried values up to the pipeline's last step, the very edge of
// that transition, and the entry's initial values win over those
// writes; were it the other way, the next entry would start from the
// previous entry's last values (deriche f64's column-wise backward
// recurrence would give NaN in the first row of every column but the
// first). col: that nest
// of deriche, four by four, with its carried values (tp1, tp2, yp1,
// yp2 from 0.0) and a store and a load of the same word in one
// iteration, the load (yp1) at the pipeline's last step; the
// coefficients are fixed so that any stale value shows. ints: the same
// in i32, two carried values. The load of the stored word is a
// memref.load (its index from affine.apply), which the front's
// store-to-load forwarding (affine-scalrep, affine accesses only) leaves
// a load. Co-simulated bit for bit; lint clean. col's f64 products
// (36 DSPs by the estimate, of the ECP5-25k's 28) are built as given
// (`--no-fit`): the steps checked are those of one unit per operation.
// RUN: rm -rf %t.c %t.i
// RUN: silica hls %s --top col -o %t.c --no-fit --sim --sim-scalar c1=0.5 --sim-scalar c2=-0.25 --sim-scalar c3=0.75 --sim-scalar c4=-1.5 | FileCheck %s --check-prefix=COL
// RUN: FileCheck %s --check-prefix=STEPS < %t.c/report.txt
// RUN: verilator --lint-only -Wall -Wno-DECLFILENAME %t.c/col.sv
// RUN: silica hls %s --top ints -o %t.i --sim --sim-scalar a=3 --sim-scalar b=5 | FileCheck %s --check-prefix=INT
// RUN: verilator --lint-only -Wall %t.i/ints.sv

// COL: co-simulation (seed 1): 32 values match
// COL: col/0/0: trip 4, pipelined, II 17 (ResMII 2, RecMII 17), depth 23
// The y load (yp1) at step 21, its value written at the last step, 22:
// STEPS: schedule of col/0/0
// STEPS: 20: store#7
// STEPS-NEXT: 21: load#9
// STEPS-NEXT: 22:{{ *$}}
// INT: co-simulation (seed 1): 32 values match
// INT: ints/0/0: trip 4, pipelined, II 3 (ResMII 2, RecMII 3), depth 3
func.func @col(%c1: f64 {hls.name = "c1"}, %c2: f64 {hls.name = "c2"},
    %c3: f64 {hls.name = "c3"}, %c4: f64 {hls.name = "c4"},
    %x: memref<4x4xf64> {hls.name = "x"},
    %y: memref<4x4xf64> {hls.name = "y"}) {
  %zero = arith.constant 0.0 : f64
  affine.for %j = 0 to 4 {
    %r:4 = affine.for %i = 0 to 4 iter_args(%tp1 = %zero, %tp2 = %zero, %yp1 = %zero, %yp2 = %zero) -> (f64, f64, f64, f64) {
      %a = arith.mulf %c1, %tp1 : f64
      %b = arith.mulf %c2, %tp2 : f64
      %ab = arith.addf %a, %b : f64
      %c = arith.mulf %c3, %yp1 : f64
      %abc = arith.addf %ab, %c : f64
      %d = arith.mulf %c4, %yp2 : f64
      %s = arith.addf %abc, %d : f64
      affine.store %s, %y[3 - %i, %j] : memref<4x4xf64>
      %l = affine.load %x[3 - %i, %j] : memref<4x4xf64>
      %ri = affine.apply affine_map<(d0) -> (3 - d0)>(%i)
      %l2 = memref.load %y[%ri, %j] : memref<4x4xf64>
      affine.yield %l, %tp1, %l2, %yp1 : f64, f64, f64, f64
    }
  }
  return
}

func.func @ints(%a: i32 {hls.name = "a"}, %b: i32 {hls.name = "b"},
    %x: memref<4x4xi32> {hls.name = "x"},
    %y: memref<4x4xi32> {hls.name = "y"}) {
  %zero = arith.constant 0 : i32
  affine.for %j = 0 to 4 {
    %r:2 = affine.for %i = 0 to 4 iter_args(%t = %zero, %yp = %zero) -> (i32, i32) {
      %m = arith.muli %a, %t : i32
      %n = arith.muli %b, %yp : i32
      %s = arith.addi %m, %n : i32
      affine.store %s, %y[3 - %i, %j] : memref<4x4xi32>
      %l = affine.load %x[3 - %i, %j] : memref<4x4xi32>
      %ri = affine.apply affine_map<(d0) -> (3 - d0)>(%i)
      %l2 = memref.load %y[%ri, %j] : memref<4x4xi32>
      affine.yield %l, %l2 : i32, i32
    }
  }
  return
}
