// math ops against mlir-opt-22, custom and generic, and back from generic.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: mlir-opt-22 --mlir-print-op-generic %s | silica opt | diff - <(mlir-opt-22 %s)

func.func @m(%x: f32, %v: vector<4xf64>, %i: i32, %t: tensor<2xf16>) {
  %0 = math.absf %x : f32
  %1 = math.sqrt %v fastmath<fast> : vector<4xf64>
  %2 = math.atan2 %x, %x : f32
  %3 = math.fma %x, %x, %x fastmath<nnan> : f32
  %4 = math.clampf %x to [%x, %x] : f32
  %5, %6 = math.sincos %x : f32
  %7 = math.fpowi %x, %i : f32, i32
  %8 = math.ctpop %i : i32
  %9 = math.ipowi %i, %i : i32
  %10 = math.isnan %x : f32
  %11 = math.isinf %v : vector<4xf64>
  %12 = math.tanh %t : tensor<2xf16>
  %13 = math.powf %x, %x : f32
  return
}
