// scf.forall's checks, with mlir-opt-22's messages, checked by both tools.
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --split-input-file --verify-diagnostics %s

func.func @wrong_terminator() {
  %c100 = arith.constant 100 : index
  // expected-error @+2 {{'scf.forall' op expects regions to end with 'scf.forall.in_parallel', found 'llvm.return'}}
  // expected-note @below {{in custom textual format, the absence of terminator implies 'scf.forall.in_parallel'}}
  scf.forall (%i) in (%c100) {
    llvm.return
  }
  return
}

// -----

func.func @memref_outs(%m: memref<4xf32>) {
  // expected-error @+1 {{'scf.forall' op operand #0 must be variadic of ranked tensor of any type values, but got 'memref<4xf32>'}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %m) -> (memref<4xf32>) {
  }
  return
}

// -----

func.func @outs_and_types(%t: tensor<4xf32>) {
  // expected-error @+1 {{number of operands and types do not match: got 1 operands and 2 types}}
  %r:2 = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>, tensor<4xf32>) {
  }
  return
}

// -----

func.func @bad_mapping(%n: index) {
  // expected-error @+1 {{'scf.forall' op attribute 'mapping' failed to satisfy constraint: Device Mapping array attribute}}
  scf.forall (%i) in (%n) {
  } {mapping = [1]}
  return
}

// -----

func.func @in_parallel_outside() {
  // expected-error @+1 {{'scf.forall.in_parallel' op expects parent op 'scf.forall'}}
  scf.forall.in_parallel {
  }
  return
}
