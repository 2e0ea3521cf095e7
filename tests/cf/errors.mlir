// Branch verification with mlir-opt-22's messages.
// RUN: silica opt --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --split-input-file --verify-diagnostics %s

func.func @arity(%a: i32) {
  // expected-error @+1 {{branch has 1 operands for successor #0, but target block has 0}}
  cf.br ^bb1(%a : i32)
^bb1:
  return
}

// -----

func.func @types(%c: i1, %a: i32) {
  // expected-error @+1 {{type mismatch for bb argument #0 of successor #1}}
  cf.cond_br %c, ^bb1, ^bb2(%a : i32)
^bb1:
  return
^bb2(%x: f32):
  return
}

// -----

func.func @weights(%c: i1) {
  // expected-error @+1 {{expects number of branch weights to match number of successors: 3 vs 2}}
  cf.cond_br %c weights([1, 2, 3]), ^bb1, ^bb1
^bb1:
  return
}

// -----

func.func @switch_default(%a: i32) {
  cf.switch %a : i32, [
    // expected-error @+1 {{expected 'default'}}
    4: ^bb1
  ]
^bb1:
  return
}
