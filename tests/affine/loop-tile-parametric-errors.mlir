// test-affine-parametric-tile: the tile sizes are the function's first
// arguments, one per loop of the band, of index type; otherwise an error
// at the band (the pass stops there without failing), as in MLIR.
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --test-affine-parametric-tile %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --split-input-file --verify-diagnostics --test-affine-parametric-tile %s

func.func @too_few(%t0: index) {
  // expected-error@+1 {{too few tile sizes provided in the argument list of the function which contains the current band}}
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      "foo.bar"(%i, %j) : (index, index) -> ()
    }
  }
  return
}

// -----

func.func @not_index(%t0: i32, %t1: index) {
  // expected-error@+1 {{expected tiling parameters to be of index type}}
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      "foo.bar"(%i, %j) : (index, index) -> ()
    }
  }
  return
}
