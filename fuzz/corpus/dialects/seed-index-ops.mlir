// index ops against mlir-opt-22, custom and generic, and back from generic.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: mlir-opt-22 --mlir-print-op-generic %s | silica opt | diff - <(mlir-opt-22 %s)

func.func @i(%a: index, %b: index, %n: i64) {
  %0 = index.add %a, %b
  %1 = index.cmp slt(%a, %b)
  %2 = index.constant 42
  %3 = index.bool.constant true
  %4 = index.casts %n : i64 to index
  %5 = index.sizeof
  %6 = index.constant -3
  %7 = index.bool.constant false
  return
}
func.func @big() -> (index, index) {
  %a = index.constant 8000000000000000000
  %b = index.constant -9223372036854775808
  %c = index.maxu %a, %b
  %d = index.cmp uge(%c, %a)
  return %a, %c : index, index
}
