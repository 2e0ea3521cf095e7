// irdl.c_pred prints as mlir-opt prints it, but cannot be loaded: silica
// does not evaluate C++ predicates, and says so at the op.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: not silica opt --irdl-file=%s %s 2>&1 | FileCheck %s
// RUN: not silica opt --irdl-file=%s %s -o %t.out && not test -e %t.out

// CHECK: cpred.irdl.mlir:[[# @LINE + 3]]:10: error: 'irdl.c_pred' is not supported: silica cannot evaluate C++ predicates
irdl.dialect @pred {
  irdl.type @t {
    %0 = irdl.c_pred "::llvm::isa<::mlir::IntegerAttr>($_self)"
    irdl.parameters(p: %0)
  }
}
