// `silica irdl-export`: the IRDL of each native dialect loads in mlir-opt-22
// and in silica, and describes its ops (here comb's, used generically).
// RUN: for d in arith func cf math index scf memref affine llvm hw comb seq irdl ssp; do silica irdl-export $d --as x_$d -o %t.$d.irdl && mlir-opt-22 --irdl-file=%t.$d.irdl /dev/null > /dev/null && silica opt --irdl-file=%t.$d.irdl /dev/null > /dev/null || exit 1; done
// RUN: diff <(silica opt --irdl-file=%t.comb.irdl --verify-diagnostics --split-input-file %s 2>&1) <(mlir-opt-22 --irdl-file=%t.comb.irdl --verify-diagnostics --split-input-file %s 2>&1)
// RUN: silica irdl-export comb --as x_comb | FileCheck %s --check-prefix=COMB
// RUN: not silica irdl-export nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// COMB: //   concat.inputs
// COMB: irdl.dialect @x_comb {
// COMB:   irdl.operation @add {
// COMB-NEXT: %0 = irdl.base "!builtin.integer"
// COMB-NEXT: irdl.operands(inputs: variadic %0)
// COMB-NEXT: irdl.results(result: %0)
// COMB:   irdl.operation @icmp {
// COMB:     irdl.attributes {"predicate" = %{{.*}}}
// COMB:   irdl.operation @mux {
// COMB-NEXT: %0 = irdl.is i1
// UNKNOWN: error: unknown dialect 'nope' (registered: {{.*}}comb{{.*}})

func.func @f(%a: i8, %b: i8, %c: i1) -> i8 {
  %0 = "x_comb.add"(%a, %b) : (i8, i8) -> i8
  %1 = "x_comb.mux"(%c, %0, %a) : (i1, i8, i8) -> i8
  return %1 : i8
}

// -----

func.func @g(%a: i8, %b: i9) {
  // expected-error@+1 {{expected 'i8' but got 'i9'}}
  %0 = "x_comb.add"(%a, %b) : (i8, i9) -> i8
  return
}
