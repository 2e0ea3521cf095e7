// lower-affine lowers affine.delinearize_index as mlir-opt-22 does:
// floor division by the first suffix product of the basis, sign-corrected
// remainders divided by the next ones.
// RUN: diff <(silica opt --lower-affine %s) <(mlir-opt-22 --lower-affine %s)

func.func @mixed(%i: index, %n: index) -> (index, index, index) {
  %0:3 = affine.delinearize_index %i into (7, %n, 5) : index, index, index
  return %0#0, %0#1, %0#2 : index, index, index
}

func.func @no_outer_bound(%i: index, %n: index) -> (index, index, index) {
  %0:3 = affine.delinearize_index %i into (%n, 6) : index, index, index
  return %0#0, %0#1, %0#2 : index, index, index
}

func.func @static(%i: index) -> (index, index) {
  %0:2 = affine.delinearize_index %i into (4, 5) : index, index
  return %0#0, %0#1 : index, index
}
