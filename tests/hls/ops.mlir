// Every integer operation of the input language, co-simulated bit for
// bit: division and remainder (signed, unsigned, ceil, floor), shifts,
// the extended operations, min/max, all ten comparison predicates, casts
// (extsi, extui, trunci, index_cast, index_castui, bitcast); and loop
// forms: affine.for with max/min bounds over a symbol and steps, nested
// bounds over an outer induction variable, affine.if with an else branch
// and a result, an alloca'd scratch RAM through memref.load/store.
// Lint clean, accepted by yosys.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: silica hls %s --top arith -o %t.d --sim | FileCheck %s --check-prefix=ARITH
// RUN: verilator --lint-only -Wall %t.d/arith.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/arith.sv; synth_ice40 -dsp -top arith"
// RUN: silica hls %s --top bounds -o %t.d --sim --sim-scalar n=25 | FileCheck %s --check-prefix=BOUNDS
// RUN: silica hls %s --top bounds -o %t.d --sim --seed 3 | FileCheck %s --check-prefix=BOUNDS3
// RUN: verilator --lint-only -Wall %t.d/bounds.sv
// RUN: yosys -q -p "read_verilog -sv %t.d/bounds.sv; synth_ice40 -dsp -top bounds"

// ARITH: co-simulation (seed 1): 192 values match
func.func @arith(%a: memref<16xi16>, %b: memref<16xi16>, %o: memref<16x9xi16>,
                 %w: memref<16xi32>) {
  affine.for %i = 0 to 16 {
    %x0 = affine.load %a[%i] : memref<16xi16>
    %y0 = affine.load %b[%i] : memref<16xi16>
    %one = arith.constant 1 : i16
    // A dividend that is never the most negative value, a divisor never 0.
    %x = arith.shrsi %x0, %one : i16
    %y = arith.ori %y0, %one : i16
    %q0 = arith.divsi %x, %y : i16
    affine.store %q0, %o[%i, 0] : memref<16x9xi16>
    %q1 = arith.divui %x, %y : i16
    affine.store %q1, %o[%i, 1] : memref<16x9xi16>
    %q2 = arith.remsi %x, %y : i16
    affine.store %q2, %o[%i, 2] : memref<16x9xi16>
    %q3 = arith.remui %x, %y : i16
    affine.store %q3, %o[%i, 3] : memref<16x9xi16>
    %q4 = arith.ceildivsi %x, %y : i16
    affine.store %q4, %o[%i, 4] : memref<16x9xi16>
    %q5 = arith.floordivsi %x, %y : i16
    affine.store %q5, %o[%i, 5] : memref<16x9xi16>
    %q6 = arith.ceildivui %x, %y : i16
    affine.store %q6, %o[%i, 6] : memref<16x9xi16>
    %c15 = arith.constant 15 : i16
    %s = arith.andi %y0, %c15 : i16
    %sl = arith.shli %x0, %s : i16
    %sr = arith.shrui %x0, %s : i16
    %sa = arith.shrsi %x0, %s : i16
    %s1 = arith.xori %sl, %sr : i16
    %s2 = arith.subi %s1, %sa : i16
    affine.store %s2, %o[%i, 7] : memref<16x9xi16>
    // The ten predicates as a bit mask.
    %p0 = arith.cmpi eq, %x0, %y0 : i16
    %p1 = arith.cmpi ne, %x0, %y0 : i16
    %p2 = arith.cmpi slt, %x0, %y0 : i16
    %p3 = arith.cmpi sle, %x0, %y0 : i16
    %p4 = arith.cmpi sgt, %x0, %y0 : i16
    %p5 = arith.cmpi sge, %x0, %y0 : i16
    %p6 = arith.cmpi ult, %x0, %y0 : i16
    %p7 = arith.cmpi ule, %x0, %y0 : i16
    %p8 = arith.cmpi ugt, %x0, %y0 : i16
    %p9 = arith.cmpi uge, %x0, %y0 : i16
    %e0 = arith.extui %p0 : i1 to i16
    %e1 = arith.extui %p1 : i1 to i16
    %e2 = arith.extui %p2 : i1 to i16
    %e3 = arith.extui %p3 : i1 to i16
    %e4 = arith.extui %p4 : i1 to i16
    %e5 = arith.extui %p5 : i1 to i16
    %e6 = arith.extui %p6 : i1 to i16
    %e7 = arith.extui %p7 : i1 to i16
    %e8 = arith.extui %p8 : i1 to i16
    %e9 = arith.extui %p9 : i1 to i16
    %k1 = arith.constant 1 : i16
    %k2 = arith.constant 2 : i16
    %k3 = arith.constant 3 : i16
    %k4 = arith.constant 4 : i16
    %k5 = arith.constant 5 : i16
    %k6 = arith.constant 6 : i16
    %k7 = arith.constant 7 : i16
    %k8 = arith.constant 8 : i16
    %k9 = arith.constant 9 : i16
    %m1 = arith.shli %e1, %k1 : i16
    %m2 = arith.shli %e2, %k2 : i16
    %m3 = arith.shli %e3, %k3 : i16
    %m4 = arith.shli %e4, %k4 : i16
    %m5 = arith.shli %e5, %k5 : i16
    %m6 = arith.shli %e6, %k6 : i16
    %m7 = arith.shli %e7, %k7 : i16
    %m8 = arith.shli %e8, %k8 : i16
    %m9 = arith.shli %e9, %k9 : i16
    %o1 = arith.ori %e0, %m1 : i16
    %o2 = arith.ori %o1, %m2 : i16
    %o3 = arith.ori %o2, %m3 : i16
    %o4 = arith.ori %o3, %m4 : i16
    %o5 = arith.ori %o4, %m5 : i16
    %o6 = arith.ori %o5, %m6 : i16
    %o7 = arith.ori %o6, %m7 : i16
    %o8 = arith.ori %o7, %m8 : i16
    %o9 = arith.ori %o8, %m9 : i16
    affine.store %o9, %o[%i, 8] : memref<16x9xi16>
    // Extended operations, min/max and casts into one i32 word.
    %lo, %hi = arith.mulsi_extended %x0, %y0 : i16
    %ulo, %uhi = arith.mului_extended %x0, %y0 : i16
    %sum, %carry = arith.addui_extended %x0, %y0 : i16, i1
    %mn = arith.minsi %x0, %y0 : i16
    %mx = arith.maxui %x0, %y0 : i16
    %mu = arith.minui %lo, %uhi : i16
    %ms = arith.maxsi %hi, %ulo : i16
    %hie = arith.extsi %hi : i16 to i32
    %loe = arith.extui %lo : i16 to i32
    %c16 = arith.constant 16 : i32
    %hish = arith.shli %hie, %c16 : i32
    %prod = arith.ori %hish, %loe : i32
    %uhie = arith.extui %uhi : i16 to i32
    %uprod = arith.shli %uhie, %c16 : i32
    %t1 = arith.xori %prod, %uprod : i32
    %sume = arith.extui %sum : i16 to i32
    %carrye = arith.extui %carry : i1 to i32
    %c31 = arith.constant 31 : i32
    %carrys = arith.shli %carrye, %c31 : i32
    %t2 = arith.xori %t1, %sume : i32
    %t3 = arith.xori %t2, %carrys : i32
    %mne = arith.extsi %mn : i16 to i32
    %mxe = arith.extui %mx : i16 to i32
    %mue = arith.extui %mu : i16 to i32
    %mse = arith.extsi %ms : i16 to i32
    %t4 = arith.addi %t3, %mne : i32
    %t5 = arith.subi %t4, %mxe : i32
    %t6 = arith.xori %t5, %mue : i32
    %t7 = arith.addi %t6, %mse : i32
    %bc = arith.bitcast %t7 : i32 to i32
    %tr = arith.trunci %bc : i32 to i8
    %ix = arith.index_cast %tr : i8 to index
    %iu = arith.index_castui %tr : i8 to index
    %sumi = arith.addi %ix, %iu : index
    %back = arith.index_cast %sumi : index to i32
    %backu = arith.index_castui %sumi : index to i32
    %t8 = arith.xori %t7, %back : i32
    %t9 = arith.addi %t8, %backu : i32
    affine.store %t9, %w[%i] : memref<16xi32>
  }
  return
}

// BOUNDS: co-simulation (seed 1): 96 values match
// BOUNDS3: co-simulation (seed 3): 96 values match
func.func @bounds(%a: memref<32xi32>, %b: memref<32xi32>, %c: memref<32xi32>,
                  %n: index {hls.name = "n"}) {
  affine.for %i = max affine_map<()[s0] -> (2, s0 - 20)>()[%n] to min affine_map<()[s0] -> (30, s0)>()[%n] step 3 {
    %v = affine.load %a[%i] : memref<32xi32>
    %d = arith.addi %v, %v : i32
    affine.store %d, %b[%i] : memref<32xi32>
  }
  affine.for %i = 0 to 8 step 2 {
    affine.for %j = max affine_map<(d0) -> (d0, 1)>(%i) to min affine_map<(d0) -> (d0 + 5, 7)>(%i) {
      %v = affine.load %a[%i * 4 + %j] : memref<32xi32>
      %ji = arith.index_cast %j : index to i32
      %s = arith.subi %v, %ji : i32
      affine.store %s, %c[%i * 4 + %j] : memref<32xi32>
    }
  }
  %t = memref.alloca() : memref<8xi32>
  affine.for %i = 0 to 32 step 4 {
    %q = affine.if affine_set<(d0)[s0] : (s0 - d0 - 1 >= 0)>(%i)[%n] -> i32 {
      %v = affine.load %a[%i + 1] : memref<32xi32>
      affine.yield %v : i32
    } else {
      %k = arith.constant -7 : i32
      affine.yield %k : i32
    }
    %slot = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%i)
    memref.store %q, %t[%slot] : memref<8xi32>
  }
  affine.for %i = 0 to 8 {
    %v = memref.load %t[%i] : memref<8xi32>
    %at = affine.apply affine_map<(d0) -> (d0 * 4 + 3)>(%i)
    memref.store %v, %a[%at] : memref<32xi32>
  }
  return
}
