// Empty sparse elements and dense arrays of every element width mlir-opt
// accepts, printed as mlir-opt-22 prints them.
// RUN: diff <(silica opt --allow-unregistered-dialect %s) <(mlir-opt-22 --allow-unregistered-dialect %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-op-generic %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-op-generic %s)

"t.op"() {a = sparse<> : tensor<3xi8>, b = sparse<> : vector<2x2xf16>} : () -> ()
"t.op"() {a = array<si8: -3>, b = array<ui16: 65535>, c = array<f16: 0.5, -2.0>, d = array<bf16: 1.0>, e = array<i24: 7>, f = array<f8E5M2: 2.0>} : () -> ()
