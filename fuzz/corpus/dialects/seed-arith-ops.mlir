// arith ops in their declarative formats, custom and generic, against mlir-opt-22.
// RUN: diff <(silica opt --allow-unregistered-dialect %s) <(mlir-opt-22 --allow-unregistered-dialect %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-op-generic %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-op-generic %s)
// RUN: silica opt --allow-unregistered-dialect --mlir-print-op-generic %s | silica opt --allow-unregistered-dialect | diff - <(silica opt --allow-unregistered-dialect %s)

"test.func"() ({
^bb0(%a: i32, %b: i32, %x: f32, %i: index, %v: vector<4xi32>, %fv: vector<2xf64>):
  %0 = arith.addi %a, %b overflow<nsw, nuw> : i32
  %1 = arith.addi %a, %b : i32
  %2 = arith.addf %x, %x fastmath<fast> : f32
  %3 = arith.addf %x, %x fastmath<nnan,ninf> : f32
  %4 = arith.muli %a, %b overflow<nuw> : i32
  %5 = arith.subf %x, %x : f32
  %6 = arith.cmpi slt, %a, %b : i32
  %7 = arith.cmpf olt, %x, %x fastmath<fast> : f32
  %8 = arith.extsi %a : i32 to i64
  %9 = arith.divsi %a, %b exact : i32
  %10 = arith.divui %a, %b : i32
  %11 = arith.trunci %8 overflow<nsw> : i64 to i32
  %12 = arith.index_cast %a : i32 to index
  %13 = arith.negf %x : f32
  %14 = arith.cmpi eq, %v, %v : vector<4xi32>
  %15 = arith.andi %v, %v {foo = "bar"} : vector<4xi32>
  %16 = arith.maxnumf %fv, %fv : vector<2xf64>
  %17 = arith.sitofp %a : i32 to f32
  %18 = arith.bitcast %x : f32 to i32
  %c = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  %t = arith.constant true
  %f = arith.constant 1.0 : f32
  %cv = arith.constant dense<0> : vector<4xi32>
  %19 = arith.shrui %a, %b : i32
  %20 = arith.extf %x fastmath<contract> : f32 to f64
  "test.return"(%0, %1) : (i32, i32) -> ()
}) : () -> ()
"test.func2"() ({
  %a = arith.constant 0 : i32
  %b = arith.constant 0 : i32
  %c = arith.constant -7 : i64
  %d = arith.constant false
  %e = arith.constant 2.5 : f64
  "test.region"() ({
    %g = arith.constant 0 : i32
    %h = arith.constant 1.5 : f32
  }) : () -> ()
  "test.region"() ({
    %g = arith.constant 0 : i32
  }) : () -> ()
  %i = arith.constant 0 : i32
}) : () -> ()
"test.more"() ({
^bb0(%p: i64, %q: i64, %t: tensor<4x?xi8>, %h: f16, %bf: bf16, %fv: vector<4xf32>):
  %0 = arith.subi %p, %q overflow<nsw> : i64
  %1 = arith.shli %p, %q overflow<nsw, nuw> : i64
  %2 = arith.xori %t, %t : tensor<4x?xi8>
  %3 = arith.ceildivsi %p, %q : i64
  %4 = arith.floordivsi %p, %q : i64
  %5 = arith.remui %p, %q : i64
  %6 = arith.minsi %p, %q : i64
  %7 = arith.shrsi %p, %q exact : i64
  %8 = arith.divf %h, %h fastmath<reassoc,contract> : f16
  %9 = arith.remf %bf, %bf : bf16
  %10 = arith.minimumf %fv, %fv fastmath<nsz,arcp,afn> : vector<4xf32>
  %11 = arith.cmpf uno, %h, %h : f16
  %12 = arith.cmpf oge, %fv, %fv : vector<4xf32>
  %13 = arith.cmpi uge, %p, %q : i64
  %14 = arith.extui %p : i64 to i128
  %15 = arith.truncf %fv : vector<4xf32> to vector<4xf16>
  %16 = arith.uitofp %p : i64 to f64
  %17 = arith.fptoui %h : f16 to i8
  %18 = arith.fptosi %bf : bf16 to i32
  %19 = arith.index_castui %p : i64 to index
  %20 = arith.addi %p, %q overflow<none> : i64
  %21 = arith.mulf %h, %h fastmath<none> : f16
  %22 = "arith.addi"(%p, %q) {overflowFlags = #arith.overflow<nuw>} : (i64, i64) -> i64
  %23 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %24 = arith.constant {note} 4 : i8
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24) : (i64, i64, tensor<4x?xi8>, i64, i64, i64, i64, i64, f16, bf16, vector<4xf32>, i1, vector<4xi1>, i1, i128, vector<4xf16>, f64, i8, i32, index, i64, f16, i64, tensor<2xf32>, i8) -> ()
}) : () -> ()
"test.generic"() ({
^bb0(%a: i32, %x: f32):
 %0 = "arith.addi"(%a, %a) : (i32, i32) -> i32
 %1 = "arith.addi"(%a, %a) {overflowFlags = #arith.overflow<nuw>, z = 1} : (i32, i32) -> i32
 %2 = "arith.addi"(%a, %a) <{overflowFlags = #arith.overflow<nsw>}> {overflowFlags = #arith.overflow<nuw>} : (i32, i32) -> i32
}) : () -> ()
"test.rounding"() ({
^bb0(%x: f32):
 %0 = arith.truncf %x to_nearest_even : f32 to f16
 %1 = arith.truncf %x downward fastmath<fast> : f32 to f16
}) : () -> ()
