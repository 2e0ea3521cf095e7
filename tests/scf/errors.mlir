// scf verifier errors with mlir-opt-22's messages.
// RUN: silica opt --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --split-input-file --verify-diagnostics %s

func.func @bounds(%a: index, %b: i32) {
  // expected-error @+1 {{failed to verify that all of {lowerBound, upperBound, step} have same type}}
  "scf.for"(%a, %b, %a) ({
  ^bb0(%i: index):
    scf.yield
  }) : (index, i32, index) -> ()
  return
}

// -----

func.func @yield_type(%a: index, %x: f32, %y: i32) {
  // expected-error @+1 {{0-th region iter_arg and 0-th yielded value have different type: 'f32' != 'i32'}}
  %r = scf.for %i = %a to %a step %a iter_args(%s = %x) -> (f32) {
    scf.yield %y : i32
  }
  return
}

// -----

func.func @no_else(%c: i1, %x: f32) {
  // expected-error @+1 {{must have an else block if defining values}}
  %r = "scf.if"(%c) ({
    scf.yield %x : f32
  }, {
  }) : (i1) -> f32
  return
}

// -----

func.func @region_args() {
  // expected-error @+1 {{region cannot have any arguments}}
  "scf.execute_region"() ({
  ^bb0(%i : i32):
    scf.yield
  }) : () -> ()
  return
}
