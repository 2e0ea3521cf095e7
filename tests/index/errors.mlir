// Index verifier and parser errors.
// RUN: silica opt --verify-diagnostics --split-input-file %s

func.func @same_side(%a: index) {
  // expected-error @+1 {{'index.casts' op operand type 'index' and result type 'index' are cast incompatible}}
  %0 = index.casts %a : index to index
  return
}

// -----

func.func @bad_predicate(%a: index) {
  // expected-error @+1 {{expected ::mlir::index::IndexCmpPredicate to be one of: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge}}
  %0 = index.cmp less(%a, %a)
  return
}

// -----

func.func @too_big() {
  // expected-error @+1 {{integer constant out of range for attribute}}
  %0 = index.constant 18446744073709551615
  return
}
