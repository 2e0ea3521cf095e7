// `silica dse --fit`: a point that exceeds its device shares functional
// units until it fits, as `silica hls` (and `--auto`) builds it. Five
// products of 32-bit words need 9 of ice40-up5k's 8 DSP blocks: without
// --fit even the kernel without directives is no design (exit 1); with
// it every point is fitted (one shared multiplier when pipelined, 3 DSP;
// two in sequence, 6 DSP) and valid.
// RUN: rm -rf %t.no %t.fit
// RUN: not silica dse %s --top f --space %S/spaces/fit.toml --target ice40-up5k -o %t.no 2>&1 | FileCheck %s --check-prefix=NO
// RUN: silica dse %s --top f --space %S/spaces/fit.toml --target ice40-up5k -o %t.fit --fit | FileCheck %s --check-prefix=FIT
// RUN: FileCheck %s --check-prefix=CSV < %t.fit/points.csv

// NO: the kernel without directives is no design: larger than ice40-up5k: the estimate needs 9 DSP of 8
// FIT: points: 2 seen, 2 evaluated at estimate in {{.*}}, 0 pruned, 0 invalid, 0 failed
// CSV: 0,true,ok,estimate,{{[^,]*}},{{[^,]*}},44,{{[^,]*}},{{[^,]*}},{{[^,]*}},3,
// CSV: 1,false,ok,estimate,{{[^,]*}},{{[^,]*}},65,{{[^,]*}},{{[^,]*}},{{[^,]*}},6,
func.func @f(%A: memref<8x4xi32> {hls.name = "A"}, %B: memref<8x5xi32> {hls.name = "B"}) {
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i, 0] : memref<8x4xi32>
    %b = affine.load %A[%i, 1] : memref<8x4xi32>
    %c = affine.load %A[%i, 2] : memref<8x4xi32>
    %d = affine.load %A[%i, 3] : memref<8x4xi32>
    %p0 = arith.muli %a, %b : i32
    %p1 = arith.muli %b, %c : i32
    %p2 = arith.muli %c, %d : i32
    %p3 = arith.muli %a, %d : i32
    %p4 = arith.muli %a, %c : i32
    affine.store %p0, %B[%i, 0] : memref<8x5xi32>
    affine.store %p1, %B[%i, 1] : memref<8x5xi32>
    affine.store %p2, %B[%i, 2] : memref<8x5xi32>
    affine.store %p3, %B[%i, 3] : memref<8x5xi32>
    affine.store %p4, %B[%i, 4] : memref<8x5xi32>
  } {hls.label = "i"}
  return
}
