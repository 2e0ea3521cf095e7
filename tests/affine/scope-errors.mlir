// Affine dimension and symbol validity, loop bounds, parallel groups and
// reductions, map operand counts: mlir-opt-22's messages, checked by both
// tools.
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --split-input-file --verify-diagnostics %s

func.func @loop_value_as_symbol(%m: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    // expected-error@+1 {{'affine.load' op operand cannot be used as a symbol}}
    %v = affine.load %m[symbol(%i)] : memref<8xf32>
  }
  return
}

// -----

func.func @region_argument_as_dim(%m: memref<8xf32>, %x: f32) {
  "test.region"() ({
  ^bb0(%j: index):
    // expected-error@+1 {{'affine.store' op operand cannot be used as a dimension id}}
    affine.store %x, %m[%j] : memref<8xf32>
  }) : () -> ()
  return
}

// -----

func.func @pure_ops_of_symbols_are_symbols(%m: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  affine.for %i = 0 to 4 {
    %k = arith.addi %n, %c1 : index
    %d = memref.dim %m, %c1 : memref<?xf32>
    affine.for %j = %k to %d {
      %v = affine.load %m[%j + symbol(%k)] : memref<?xf32>
    }
  }
  return
}

// -----

func.func @division_is_not_a_symbol(%m: memref<?xf32>, %n: index) {
  affine.for %i = 0 to 4 {
    %k = arith.divui %n, %n : index
    // expected-error@+1 {{'affine.for' op operand cannot be used as a symbol}}
    affine.for %j = 0 to %k {
    }
  }
  return
}

// -----

func.func @if_condition_symbol(%n: index) {
  affine.for %i = 0 to 4 {
    // expected-error@+1 {{'affine.if' op operand cannot be used as a symbol}}
    affine.if affine_set<(d0)[s0] : (s0 - d0 >= 0)>(%i)[%i] {
    }
  }
  return
}

// -----

func.func @apply_dim_as_symbol(%n: index) {
  affine.for %i = 0 to 4 {
    // expected-error@+1 {{dimensional operand cannot be used as a symbol}}
    %0 = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%i]
  }
  return
}

// -----

func.func @min_without_results(%n: index) {
  // expected-error@+1 {{'affine.min' op affine map expect at least one result}}
  %0 = affine.min affine_map<(d0) -> ()> (%n)
  return
}

// -----

func.func @max_operands(%n: index) {
  // expected-error@+1 {{'affine.max' op operand count and affine map dimension and symbol count must match}}
  %0 = affine.max affine_map<(d0, d1) -> (d0, d1)> (%n)
  return
}

// -----

func.func @load_subscripts(%m: memref<4x4xf32>, %i: index) {
  // expected-error@+1 {{'affine.load' op expects as many subscripts as affine map inputs}}
  %0 = "affine.load"(%m, %i) <{map = affine_map<(d0, d1) -> (d0, d1)>}> : (memref<4x4xf32>, index) -> f32
  return
}

// -----

func.func @parallel_groups() {
  // expected-error@+1 {{'affine.parallel' op the number of region arguments (1) and the number of map groups for lower (1) and upper bound (1), and the number of steps (2) must all match}}
  "affine.parallel"() <{lowerBoundsGroups = dense<1> : tensor<1xi32>, lowerBoundsMap = affine_map<() -> (0)>, reductions = [], steps = [1, 1], upperBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<() -> (4)>}> ({
  ^bb0(%i: index):
    affine.yield
  }) : () -> ()
  return
}

// -----

func.func @parallel_reduction_type(%m: memref<4xf32>) {
  // expected-error@+1 {{'affine.parallel' op result type cannot match reduction attribute}}
  %r = affine.parallel (%i) = (0) to (4) reduce ("ori") -> (f32) {
    %v = affine.load %m[%i] : memref<4xf32>
    affine.yield %v : f32
  }
  return
}

// -----

func.func @parallel_missing_reduction(%m: memref<4xf32>) {
  // expected-error@+1 {{'affine.parallel' op a reduction must be specified for each output}}
  %r = affine.parallel (%i) = (0) to (4) -> (f32) {
    %v = affine.load %m[%i] : memref<4xf32>
    affine.yield %v : f32
  }
  return
}

// -----

func.func @yield_types(%m: memref<4xi32>, %n: index) {
  %r = affine.for %i = 0 to 4 iter_args(%acc = %n) -> (index) {
    %v = affine.load %m[%i] : memref<4xi32>
    // expected-error@+1 {{'affine.yield' op types mismatch between yield op and its parent}}
    affine.yield %v : i32
  }
  return
}

// -----

func.func @bound_uses_its_own_iv() {
  // expected-error@+2 {{region entry argument '%i' is already in use}}
  // expected-note@+1 {{previously referenced here}}
  affine.for %i = affine_map<(d0) -> (d0)>(%i) to 8 {
  }
  return
}

// -----

func.func @bound_out_of_range() {
  // expected-error@+1 {{integer constant out of range for attribute}}
  affine.for %i = 0 to 9223372036854775808 {
  }
  return
}

// -----

func.func @missing_to() {
  // expected-error@+1 {{custom op 'affine.for' expected 'to' between bounds}}
  affine.for %i = 0 upto 8 {
  }
  return
}

// -----

func.func @delinearize_basis(%x: index) {
  // expected-error@+1 {{'affine.delinearize_index' op no basis element may be statically non-positive}}
  %0:2 = affine.delinearize_index %x into (0, 4) : index, index
  return
}

// -----

func.func @linearize_basis(%a: index, %b: index) -> index {
  // expected-error@+1 {{'affine.linearize_index' op should be passed a basis element for each index except possibly the first}}
  %0 = affine.linearize_index [%a, %b] by (2, 3, 4) : index
  return %0 : index
}
