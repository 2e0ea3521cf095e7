// convert-arith-to-llvm as mlir-opt-22: flags carried over, predicates,
// casts by width, min/max intrinsics, division expansions, folding
// before conversion.
// RUN: diff <(silica opt --convert-arith-to-llvm %s) <(mlir-opt-22 --convert-arith-to-llvm %s)
// RUN: diff <(silica opt --convert-to-llvm %s) <(mlir-opt-22 --convert-to-llvm %s)
// RUN: silica opt --convert-arith-to-llvm %s | FileCheck %s
func.func @ints(%a: i32, %b: i32, %i: index, %z: i32) -> (i32, i1, i64, index) {
  %0 = arith.addi %a, %b overflow<nsw> : i32
  %1 = arith.subi %0, %z overflow<nsw, nuw> : i32
  %2 = arith.muli %1, %a : i32
  %3 = arith.divsi %2, %b : i32
  %4 = arith.divui %3, %b : i32
  %5 = arith.remsi %4, %a : i32
  %6 = arith.shli %5, %a overflow<nuw> : i32
  %7 = arith.shrsi %6, %a : i32
  %8 = arith.shrui %7, %a : i32
  %9 = arith.andi %8, %a : i32
  %10 = arith.ori %9, %a : i32
  %11 = arith.xori %10, %a : i32
  %12 = arith.maxsi %11, %a : i32
  %13 = arith.minui %12, %a : i32
  %14 = arith.cmpi ult, %13, %b : i32
  %15 = arith.extsi %13 : i32 to i64
  %16 = arith.index_cast %13 : i32 to index
  %17 = arith.addi %16, %i : index
  %18 = arith.ceildivsi %13, %a : i32
  %19 = arith.floordivsi %18, %a : i32
  %20 = arith.ceildivui %19, %b : i32
  %c0 = arith.constant 0 : i32
  %21 = arith.addi %20, %c0 : i32
  %22 = arith.select %14, %21, %a : i32
  return %22, %14, %15, %17 : i32, i1, i64, index
}
func.func @floats(%x: f32, %y: f32, %v: vector<4xf32>) -> (f64, i1, i32, vector<4xf32>) {
  %0 = arith.addf %x, %y fastmath<fast> : f32
  %1 = arith.mulf %0, %y fastmath<nnan,contract> : f32
  %2 = arith.divf %1, %x : f32
  %3 = arith.subf %2, %x : f32
  %4 = arith.negf %3 : f32
  %5 = arith.maximumf %4, %x : f32
  %6 = arith.minnumf %5, %y : f32
  %7 = arith.cmpf olt, %6, %x : f32
  %8 = arith.extf %6 : f32 to f64
  %9 = arith.fptosi %6 : f32 to i32
  %one = arith.constant 1.0 : f32
  %10 = arith.mulf %x, %one : f32
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %11 = arith.addf %v, %w : vector<4xf32>
  return %8, %7, %9, %11 : f64, i1, i32, vector<4xf32>
}

// A truncation with a rounding mode becomes the constrained intrinsic; a
// bitcast between memrefs is the descriptor itself.
// CHECK-LABEL: func.func @rounding_modes
// CHECK: llvm.intr.experimental.constrained.fptrunc %{{.*}} tonearest ignore : f64 to f32
// CHECK: llvm.intr.experimental.constrained.fptrunc %{{.*}} towardzero ignore : f64 to f32
// CHECK: llvm.fptrunc %{{.*}} : f64 to f32
// CHECK-NOT: llvm.bitcast
func.func @rounding_modes(%x: f64, %m: memref<?xi16>) -> (f32, f32, f32, memref<?xbf16>) {
  %0 = arith.truncf %x to_nearest_even : f64 to f32
  %1 = arith.truncf %x toward_zero : f64 to f32
  %2 = arith.truncf %x : f64 to f32
  %3 = arith.bitcast %m : memref<?xi16> to memref<?xbf16>
  return %0, %1, %2, %3 : f32, f32, f32, memref<?xbf16>
}
