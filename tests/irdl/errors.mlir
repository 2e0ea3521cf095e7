// How errors against a dynamic dialect are shown (locations, notes, the
// op printed after a verifier error), against mlir-opt-22.
// RUN: diff <(not silica opt --irdl-file=%S/defs.irdl.mlir --split-input-file %s 2>&1) <(not mlir-opt-22 --irdl-file=%S/defs.irdl.mlir --split-input-file %s 2>&1)

func.func @region_arg_type(%n: index) {
  "sil.loop"(%n) ({
  ^bb0(%i: i32):
    "sil.end"() : () -> ()
  }, {
  }, {
  }) : (index) -> ()
  return
}

// -----

func.func @region_arg_count(%n: index) {
  "sil.loop"(%n) ({
  ^bb0:
    "sil.end"() : () -> ()
  }, {
  }, {
  }) : (index) -> ()
  return
}

// -----

func.func @type_param(%f: !sil.fixed<i16, "x">) {
  return
}

// -----

func.func @attr_param() attributes {r = #sil<rounding<"up">>} {
  return
}

// -----

func.func @unknown_attr() attributes {r = #sil.nope} {
  return
}

// -----

func.func @operands(%a: i8, %b: i9) {
  %0 = "sil.add"(%a, %b) : (i8, i9) -> i8
  return
}

// -----

func.func @properties(%a: i8) {
  %0 = "sil.add"(%a, %a) <{x = 1}> : (i8, i8) -> i8
  return
}
