// func ops (signatures with argument/result attributes, visibility,
// declarations, calls, constants) against mlir-opt-22, custom and generic.
// RUN: diff <(silica opt --allow-unregistered-dialect %s) <(mlir-opt-22 --allow-unregistered-dialect %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-op-generic %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-op-generic %s)
// RUN: silica opt --allow-unregistered-dialect --mlir-print-op-generic %s | silica opt --allow-unregistered-dialect | diff - <(mlir-opt-22 --allow-unregistered-dialect %s)

func.func @f(%a: i32, %b: i32, %x: f32) -> i32 {
  %0 = arith.addi %a, %b overflow<nsw, nuw> : i32
  %c = arith.constant 0 : i32
  %r = call @g(%0, %c) : (i32, i32) -> i32
  return %r : i32
}
func.func private @g(i32, i32) -> i32
func.func @h(%arg0: i32 {test.attr}, %arg1: f32) -> (i32 {test.r}, f32) attributes {bar = 1} {
  return %arg0, %arg1 : i32, f32
}
func.func nested @n() -> ((i32) -> i32)
func.func @void() {
  %f = func.constant @g : (i32, i32) -> i32
  func.call @void() : () -> ()
  return
}
func.func @blocks(%c: i1) -> i32 {
  %a = arith.constant 1 : i32
  "test.br"(%a)[^bb1] : (i32) -> ()
^bb1(%v: i32):
  return %v : i32
}
func.func @unnamed_args(f32, i32) -> f32 {
^bb0(%x: f32, %y: i32):
  return %x : f32
}
func.func @"quoted name"() attributes {llvm.emit_c_interface} {
  return
}
func.func @s(%c: i1, %a: i32, %b: i32, %vc: vector<4xi1>, %va: vector<4xf32>) -> i32 {
  %0 = arith.select %c, %a, %b : i32
  %1 = arith.select %vc, %va, %va : vector<4xi1>, vector<4xf32>
  %2 = arith.select %c, %va, %va {x = 1} : vector<4xf32>
  return %0 : i32
}
func.func @e(%a: i32, %v: vector<4xi64>, %x: f32, %s: f8E8M0FNU, %y: f4E2M1FN) {
  %sum, %o = arith.addui_extended %a, %a : i32, i1
  %l, %h = arith.mulsi_extended %v, %v : vector<4xi64>
  %l2, %h2 = arith.mului_extended %a, %a : i32
  %e = arith.scaling_extf %y, %s : f4E2M1FN, f8E8M0FNU to f32
  %t = arith.scaling_truncf %x, %s : f32, f8E8M0FNU to f4E2M1FN
  %t2 = arith.scaling_truncf %x, %s to_nearest_even fastmath<fast> : f32, f8E8M0FNU to f4E2M1FN
  return
}
func.func private @gi(i32) -> i32
func.func @ci(%x: i32) -> i32 {
  %f = constant @gi : (i32) -> i32
  %r = call_indirect %f(%x) : (i32) -> i32
  func.call_indirect %f(%r) {a} : (i32) -> i32
  return %r : i32
}
