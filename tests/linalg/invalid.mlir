// The structured ops' verifier, with mlir-opt-22's messages.
// RUN: silica opt --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --split-input-file --verify-diagnostics %s

#m = affine_map<(d0) -> (d0)>
func.func @maps(%x: memref<4xi32>, %y: memref<4xi32>) {
  // expected-error @+1 {{'linalg.generic' op expected the number of indexing_map (1) to be equal to the number of input/output operands (2)}}
  linalg.generic {indexing_maps = [#m], iterator_types = ["parallel"]} ins(%x : memref<4xi32>) outs(%y : memref<4xi32>) {
  ^bb0(%a: i32, %b: i32):
    linalg.yield %a : i32
  }
  return
}

// -----

#m = affine_map<(d0) -> (d0)>
func.func @loops(%x: memref<4xi32>, %y: memref<4xi32>) {
  // expected-error @+1 {{'linalg.generic' op expected indexing_map #0 to have 2 dim(s) to match the number of loops}}
  linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4xi32>) outs(%y : memref<4xi32>) {
  ^bb0(%a: i32, %b: i32):
    linalg.yield %a : i32
  }
  return
}

// -----

#m = affine_map<(d0) -> (d0)>
func.func @rank(%x: memref<4xi32>, %y: memref<4xi32>) {
  // expected-error @+1 {{'linalg.generic' op expected operand #1 rank (1) to match the result rank of indexing_map (2)}}
  linalg.generic {indexing_maps = [#m, affine_map<(d0) -> (d0, d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xi32>) outs(%y : memref<4xi32>) {
  ^bb0(%a: i32, %b: i32):
    linalg.yield %a : i32
  }
  return
}

// -----

#m = affine_map<(d0) -> (d0)>
func.func @args(%x: memref<4xi32>, %y: memref<4xi32>) {
  // expected-error @+1 {{'linalg.generic' op expected as many non-induction variable region arguments as the number of input/output operands}}
  linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]} ins(%x : memref<4xi32>) outs(%y : memref<4xi32>) {
  ^bb0(%a: i32):
    linalg.yield %a : i32
  }
  return
}

// -----

#m = affine_map<(d0) -> (d0)>
func.func @yield(%x: memref<4xi32>, %y: memref<4xi32>) {
  linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]} ins(%x : memref<4xi32>) outs(%y : memref<4xi32>) {
  ^bb0(%a: i32, %b: i32):
    // expected-error @+1 {{'linalg.yield' op expected number of yield values (0) to match the number of inits / outs operands of the enclosing LinalgOp (1)}}
    linalg.yield
  }
  return
}

// -----

func.func @index() {
  // expected-error @+1 {{'linalg.index' op result #0 must be index, but got 'i32'}}
  %0 = "linalg.index"() {dim = 1 : i64} : () -> i32
  return
}
