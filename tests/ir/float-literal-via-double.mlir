// Decimal float literals are read as mlir-opt-22 reads them: rounded to
// f64 first, then converted to the type (so f80/f128 see the double's
// value, and narrow types round twice); hexadecimal literals keep their
// exact bits; overflowing literals become the type's infinity, NaN or
// zero as LLVM's conversion gives.
// RUN: diff <(silica opt --allow-unregistered-dialect %s) <(mlir-opt-22 --allow-unregistered-dialect %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-op-generic %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-op-generic %s)

"test.wide"() {a = 1.500000e-07 : f80, b = 3.14159265358979323846 : f128, c = 0.1 : f80, d = -2.5e300 : f128} : () -> ()
"test.hex"() {a = 0x3FFF8000000000000000 : f80, b = 0x4000921FB54442D18469898CC51701B8 : f128} : () -> ()
"test.twice"() {a = 1.00000005960464477539062582718061255302767487140869206996285 : f32, b = 1.00048828125000000000000000001 : f16} : () -> ()
"test.overflow"() {a = 1.0e400 : f80, b = -1.0e400 : f128, c = -1.0e400 : f8E4M3FN, d = 1.0e400 : f8E4M3FNUZ, e = 1.0e400 : f32} : () -> ()
"test.dense"() {a = dense<[1.5e-7, 0.1]> : tensor<2xf80>, b = dense<3.14159265358979323846> : tensor<2xf128>} : () -> ()
