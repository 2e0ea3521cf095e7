// Carried stored values (front/carry.rs): a value stored in one
// iteration and read by the next passes through a register. seidel:
// the Gauss-Seidel sweep of PolyBench's seidel-2d stores A[i][j] and
// reads it back as A[i][j-1] in the next iteration, and reads rows i-1
// and i+1 around it: 9 loads and a store of A per iteration (II 10 on
// one port). Carried, each row's window passes two elements on (row
// i's A[i][j-1] is the value stored, not loaded): 3 loads and the
// store, II 4 (689 cycles against 1,441 at II 10). late: the load of
// P[i-1] comes after the store of P[i] in the body, so nothing of P is
// carried (3 loads and 2 stores on one port: II 5, as before; RecMII 2,
// the store of P[i + 1] to the next iteration's load of P[i], since the
// load of P[i - 1] and the store of P[i] are not ordered: other words).
// Co-simulated bit for bit; lint clean; accepted by yosys.
// RUN: rm -rf %t.s %t.l
// RUN: silica hls %s --top seidel -o %t.s --sim | FileCheck %s --check-prefix=SEIDEL
// RUN: FileCheck %s --check-prefix=SREPORT < %t.s/report.txt
// RUN: verilator --lint-only -Wall %t.s/seidel.sv
// RUN: yosys -q -p "read_verilog -sv %t.s/seidel.sv; synth_ice40 -dsp -top seidel"
// RUN: silica hls %s --top late -o %t.l --sim | FileCheck %s --check-prefix=LATE

// SEIDEL: co-simulation (seed 1): 100 values match
// SEIDEL: seidel/t/i/j: trip 8, pipelined, II 4 (ResMII 4, RecMII {{[1-4]}})
// SREPORT: note: loads carried across iterations (rotating registers): seidel/t/i/j: 9 -> 3 loads per iteration, 6 element(s) carried{{$}}
func.func @seidel(%A: memref<10x10xi32> {hls.name = "A"}) {
  %c9 = arith.constant 9 : i32
  affine.for %t = 0 to 2 {
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %v4 = affine.load %A[%i - 1, %j - 1] : memref<10x10xi32>
        %v5 = affine.load %A[%i - 1, %j] : memref<10x10xi32>
        %v6 = arith.addi %v4, %v5 : i32
        %v7 = affine.load %A[%i - 1, %j + 1] : memref<10x10xi32>
        %v8 = arith.addi %v6, %v7 : i32
        %v9 = affine.load %A[%i, %j - 1] : memref<10x10xi32>
        %v10 = arith.addi %v8, %v9 : i32
        %v11 = affine.load %A[%i, %j] : memref<10x10xi32>
        %v12 = arith.addi %v10, %v11 : i32
        %v13 = affine.load %A[%i, %j + 1] : memref<10x10xi32>
        %v14 = arith.addi %v12, %v13 : i32
        %v15 = affine.load %A[%i + 1, %j - 1] : memref<10x10xi32>
        %v16 = arith.addi %v14, %v15 : i32
        %v17 = affine.load %A[%i + 1, %j] : memref<10x10xi32>
        %v18 = arith.addi %v16, %v17 : i32
        %v19 = affine.load %A[%i + 1, %j + 1] : memref<10x10xi32>
        %v20 = arith.addi %v18, %v19 : i32
        %v22 = arith.divsi %v20, %c9 : i32
        affine.store %v22, %A[%i, %j] : memref<10x10xi32>
      } {hls.label = "j"}
    } {hls.label = "i"}
  } {hls.label = "t"}
  return
}

// LATE: co-simulation (seed 1): {{[0-9]+}} values match
// LATE: late/0: trip 30, pipelined, II 5 (ResMII 5, RecMII 2)
func.func @late(%p: memref<32xi32> {hls.name = "P"}) {
  affine.for %i = 1 to 31 {
    %a = affine.load %p[%i] : memref<32xi32>
    %b = affine.load %p[%i + 1] : memref<32xi32>
    %s = arith.addi %a, %b : i32
    affine.store %s, %p[%i] : memref<32xi32>
    %c = affine.load %p[%i - 1] : memref<32xi32>
    %d = arith.addi %s, %c : i32
    affine.store %d, %p[%i + 1] : memref<32xi32>
  }
  return
}
