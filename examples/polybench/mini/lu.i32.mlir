// PolyBench/C 4.2 linear-algebra/solvers/lu, MINI dataset (N=40), i32.
// Written by examples/polybench/gen.py (do not edit; run it again).
// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.
func.func @lu(%A: memref<40x40xi32> {hls.name = "A"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  affine.for %i1 = 0 to 40 {
    affine.for %j2 = 0 to affine_map<(d0) -> (d0)>(%i1) {
      affine.for %k3 = 0 to affine_map<(d0) -> (d0)>(%j2) {
        %v4 = affine.load %A[%i1, %j2] : memref<40x40xi32>
        %v5 = affine.load %A[%i1, %k3] : memref<40x40xi32>
        %v6 = affine.load %A[%k3, %j2] : memref<40x40xi32>
        %v7 = arith.muli %v5, %v6 : i32
        %v8 = arith.subi %v4, %v7 : i32
        affine.store %v8, %A[%i1, %j2] : memref<40x40xi32>
      }
      %v9 = affine.load %A[%i1, %j2] : memref<40x40xi32>
      %v10 = affine.load %A[%j2, %j2] : memref<40x40xi32>
      %z12 = arith.cmpi eq, %v10, %c0 : i32
      %d14 = arith.select %z12, %c1, %v10 : i32
      %v15 = arith.divsi %v9, %d14 : i32
      affine.store %v15, %A[%i1, %j2] : memref<40x40xi32>
    }
    affine.for %j16 = affine_map<(d0) -> (d0)>(%i1) to 40 {
      affine.for %k17 = 0 to affine_map<(d0) -> (d0)>(%i1) {
        %v18 = affine.load %A[%i1, %j16] : memref<40x40xi32>
        %v19 = affine.load %A[%i1, %k17] : memref<40x40xi32>
        %v20 = affine.load %A[%k17, %j16] : memref<40x40xi32>
        %v21 = arith.muli %v19, %v20 : i32
        %v22 = arith.subi %v18, %v21 : i32
        affine.store %v22, %A[%i1, %j16] : memref<40x40xi32>
      }
    }
  }
  return
}
