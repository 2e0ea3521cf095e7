// The II's bound and the modulo scheduler on PolyBench's floyd-warshall
// and nussinov (f32, N = 8 and 10; the MINI files' loop bodies).
// floyd-warshall: both loads of path[i][k] feed the store of path[i][j]
// through a 3-cycle addition (the comparison chained after it), and the
// store reaches both loads of the next iteration: two recurrences of 6
// cycles, so at II 6 both loads must issue 5 cycles before the store, in
// one slot of the one port. The slot bound (silica_scheduling::slot_mii)
// was 7, and the II 7. The front now merges the repeated loads
// (affine-scalrep on every loop, tests/hls/scalrep.mlir): one load of
// path[i][k] and one of path[k][j], three loads and a store on the
// port, II 6 = RecMII.
// floyd_warshall_memref: the same body with memref.load/memref.store,
// which affine-scalrep leaves alone: five loads and a store on the port
// were scheduled above the slot bound (the modulo scheduler found no II
// at it for six accesses). The CSE walk after scalar
// replacement (front/reuse.rs) merges a block's repeated loads with no
// write between them and the two additions: three loads and a store,
// II 7 = the slot bound (the dependences of memref accesses are not
// refined as the affine ones are: RecMII 6, slots 7).
// nussinov: three loads and a store on one port, the store 2 or 3
// cycles after the load of table[i][j], made the first modulo-scheduling
// attempt at II 4 chase that load and the store through the table (the
// second attempt found II 4; scheduling/src/modulo.rs keeps that case
// as a unit test). table[i][j] is now held in a register across the k
// loop (scalar promotion in a loop of variable trip count,
// front/promote.rs): two loads on the port, II 2. Both co-simulate bit
// for bit.
// RUN: rm -rf %t.f %t.m %t.n
// RUN: silica hls %s --top floyd_warshall -o %t.f --sim | FileCheck %s --check-prefix=FW
// RUN: silica hls %s --top floyd_warshall_memref -o %t.m --sim | FileCheck %s --check-prefix=FM
// RUN: silica hls %s --top nussinov -o %t.n --sim | FileCheck %s --check-prefix=NU

// FW: co-simulation (seed 1): 64 values match
// FW: floyd_warshall/0/0/0: trip 8, pipelined, II 6 (ResMII 4, RecMII 6)
func.func @floyd_warshall(%path: memref<8x8xf32> {hls.name = "path"}) {
  affine.for %k1 = 0 to 8 {
    affine.for %i2 = 0 to 8 {
      affine.for %j3 = 0 to 8 {
        %v4 = affine.load %path[%i2, %j3] : memref<8x8xf32>
        %v5 = affine.load %path[%i2, %k1] : memref<8x8xf32>
        %v6 = affine.load %path[%k1, %j3] : memref<8x8xf32>
        %v7 = arith.addf %v5, %v6 : f32
        %p8 = arith.cmpf olt, %v4, %v7 : f32
        %v9 = affine.load %path[%i2, %k1] : memref<8x8xf32>
        %v10 = affine.load %path[%k1, %j3] : memref<8x8xf32>
        %v11 = arith.addf %v9, %v10 : f32
        %v12 = affine.load %path[%i2, %j3] : memref<8x8xf32>
        %v13 = arith.select %p8, %v12, %v11 : f32
        affine.store %v13, %path[%i2, %j3] : memref<8x8xf32>
      }
    }
  }
  return
}

// FM: co-simulation (seed 1): 64 values match, latency 3585 cycles
// FM: floyd_warshall_memref/0/0/0: trip 8, pipelined, II 7 (ResMII 4, RecMII 6, slots 7)
// FM: note: equivalent operations merged (cse, unused operations kept): 4
func.func @floyd_warshall_memref(%path: memref<8x8xf32> {hls.name = "path"}) {
  affine.for %k1 = 0 to 8 {
    affine.for %i2 = 0 to 8 {
      affine.for %j3 = 0 to 8 {
        %v4 = memref.load %path[%i2, %j3] : memref<8x8xf32>
        %v5 = memref.load %path[%i2, %k1] : memref<8x8xf32>
        %v6 = memref.load %path[%k1, %j3] : memref<8x8xf32>
        %v7 = arith.addf %v5, %v6 : f32
        %p8 = arith.cmpf olt, %v4, %v7 : f32
        %v9 = memref.load %path[%i2, %k1] : memref<8x8xf32>
        %v10 = memref.load %path[%k1, %j3] : memref<8x8xf32>
        %v11 = arith.addf %v9, %v10 : f32
        %v12 = memref.load %path[%i2, %j3] : memref<8x8xf32>
        %v13 = arith.select %p8, %v12, %v11 : f32
        memref.store %v13, %path[%i2, %j3] : memref<8x8xf32>
      }
    }
  }
  return
}

// NU: co-simulation (seed 1): {{[0-9]+}} values match
// NU: nussinov/0/0/0: trip {{[0-9]+}}, pipelined, II 2 (ResMII 2, RecMII 1)
func.func @nussinov(%seq: memref<10xi8> {hls.name = "seq"},
    %table: memref<10x10xf32> {hls.name = "table"}) {
  %c3_i32 = arith.constant 3 : i32
  %cst1_0 = arith.constant 1.0 : f32
  %cst0_0 = arith.constant 0.0 : f32
  affine.for %ii1 = 0 to 10 {
    affine.for %j2 = affine_map<(d0) -> (10 - d0)>(%ii1) to 10 {
      affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%j2) {
        %v3 = affine.load %table[9 - %ii1, %j2] : memref<10x10xf32>
        %v4 = affine.load %table[9 - %ii1, %j2 - 1] : memref<10x10xf32>
        %p5 = arith.cmpf oge, %v3, %v4 : f32
        %v6 = arith.select %p5, %v3, %v4 : f32
        affine.store %v6, %table[9 - %ii1, %j2] : memref<10x10xf32>
      }
      affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%ii1) {
        %v7 = affine.load %table[9 - %ii1, %j2] : memref<10x10xf32>
        %v8 = affine.load %table[10 - %ii1, %j2] : memref<10x10xf32>
        %p9 = arith.cmpf oge, %v7, %v8 : f32
        %v10 = arith.select %p9, %v7, %v8 : f32
        affine.store %v10, %table[9 - %ii1, %j2] : memref<10x10xf32>
      }
      affine.if affine_set<(d0, d1) : (d0 - 1 >= 0, d1 - 1 >= 0)>(%j2, %ii1) {
        affine.if affine_set<(d0, d1) : (d0 + d1 - 11 >= 0)>(%j2, %ii1) {
          %v11 = affine.load %seq[9 - %ii1] : memref<10xi8>
          %v12 = arith.extsi %v11 : i8 to i32
          %v13 = affine.load %seq[%j2] : memref<10xi8>
          %v14 = arith.extsi %v13 : i8 to i32
          %v15 = arith.addi %v12, %v14 : i32
          %p17 = arith.cmpi eq, %v15, %c3_i32 : i32
          %v20 = arith.select %p17, %cst1_0, %cst0_0 : f32
          %v21 = affine.load %table[10 - %ii1, %j2 - 1] : memref<10x10xf32>
          %v22 = arith.addf %v21, %v20 : f32
          %v23 = affine.load %table[9 - %ii1, %j2] : memref<10x10xf32>
          %p24 = arith.cmpf oge, %v23, %v22 : f32
          %v25 = arith.select %p24, %v23, %v22 : f32
          affine.store %v25, %table[9 - %ii1, %j2] : memref<10x10xf32>
        } else {
          %v26 = affine.load %table[9 - %ii1, %j2] : memref<10x10xf32>
          %v27 = affine.load %table[10 - %ii1, %j2 - 1] : memref<10x10xf32>
          %p28 = arith.cmpf oge, %v26, %v27 : f32
          %v29 = arith.select %p28, %v26, %v27 : f32
          affine.store %v29, %table[9 - %ii1, %j2] : memref<10x10xf32>
        }
      }
      affine.for %k30 = affine_map<(d0) -> (10 - d0)>(%ii1) to affine_map<(d0) -> (d0)>(%j2) {
        %v31 = affine.load %table[9 - %ii1, %k30] : memref<10x10xf32>
        %v32 = affine.load %table[%k30 + 1, %j2] : memref<10x10xf32>
        %v33 = arith.addf %v31, %v32 : f32
        %v34 = affine.load %table[9 - %ii1, %j2] : memref<10x10xf32>
        %p35 = arith.cmpf oge, %v34, %v33 : f32
        %v36 = arith.select %p35, %v34, %v33 : f32
        affine.store %v36, %table[9 - %ii1, %j2] : memref<10x10xf32>
      }
    }
  }
  return
}
