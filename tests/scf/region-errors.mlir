// scf.parallel/reduce, scf.index_switch, scf.while and region-branch
// value flow: mlir-opt-22's messages and notes, checked by both tools.
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --split-input-file --verify-diagnostics %s

func.func @parallel_zero_step(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'scf.parallel' op constant step operand must be positive}}
  scf.parallel (%i) = (%c0) to (%n) step (%c0) {
  }
  return
}

// -----

func.func @parallel_bound_count(%n: index) {
  // expected-error@+1 {{custom op 'scf.parallel' expected 2 operands}}
  scf.parallel (%i, %j) = (%n, %n) to (%n) step (%n, %n) {
  }
  return
}

// -----

func.func @parallel_result_type(%n: index, %x: f32) {
  %r = scf.parallel (%i) = (%n) to (%n) step (%n) init (%x) -> f32 {
    // expected-error@+1 {{'scf.reduce' op expects type of 0-th reduction operand: 'index' to be the same as the 0-th result type: 'f32'}}
    scf.reduce(%i : index) {
    ^bb0(%a: index, %b: index):
      scf.reduce.return %a : index
    }
  }
  return
}

// -----

func.func @reduce_arguments(%n: index, %x: f32) {
  %r = scf.parallel (%i) = (%n) to (%n) step (%n) init (%x) -> f32 {
    // expected-error@+1 {{'scf.reduce' op expected two block arguments with type 'f32' in the 0-th reduction region}}
    scf.reduce(%x : f32) {
    ^bb0(%a: f32):
      scf.reduce.return %a : f32
    }
  }
  return
}

// -----

func.func @reduce_return_type(%n: index, %x: f32) {
  %r = scf.parallel (%i) = (%n) to (%n) step (%n) init (%x) -> f32 {
    scf.reduce(%x : f32) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.constant 0 : i8
      // expected-error@+1 {{'scf.reduce.return' op must have type 'f32' (the type of the reduction inputs)}}
      scf.reduce.return %c : i8
    }
  }
  return
}

// -----

func.func @switch_duplicate(%i: index) {
  // expected-error@+1 {{'scf.index_switch' op has duplicate case value: 3}}
  scf.index_switch %i
  case 3 {
    scf.yield
  }
  case 3 {
    scf.yield
  }
  default {
  }
  return
}

// -----

func.func @switch_result_type(%i: index, %x: f32) -> i32 {
  // expected-error@+1 {{'scf.index_switch' op expected result #0 of each region to be 'i32'}}
  %r = scf.index_switch %i -> i32
  case 1 {
    %c = arith.constant 1 : i32
    scf.yield %c : i32
  }
  default {
    // expected-note@+1 {{default region returns 'f32' here}}
    scf.yield %x : f32
  }
  return %r : i32
}

// -----

func.func @if_yield_count(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 2 operands, but region successor needs 1 inputs}}
  %r = scf.if %c -> f32 {
    // expected-note@+1 {{region branch point}}
    scf.yield %x, %x : f32, f32
  } else {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @while_after_types(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Operation scf.condition to Region #1: successor operand type #0 'f32' should match successor input type #0 'i1'}}
  %r = scf.while : () -> f32 {
    // expected-note@+1 {{region branch point}}
    scf.condition(%c) %x : f32
  } do {
  ^bb0(%y: i1):
    scf.yield
  }
  return
}

// -----

func.func @while_after_terminator(%c: i1) {
  // expected-error@+1 {{'scf.while' op expects the 'after' region to terminate with 'scf.yield'}}
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    // expected-note@+1 {{terminator here}}
    "test.stop"() : () -> ()
  }
  return
}
