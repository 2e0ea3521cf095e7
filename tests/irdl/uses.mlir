// Ops, types and attributes of the dialect in defs.irdl.mlir, checked with
// IRDL's semantics; silica's output and diagnostics against mlir-opt-22's.
// RUN: diff <(silica opt --irdl-file=%S/defs.irdl.mlir --split-input-file --verify-diagnostics --allow-unregistered-dialect %s 2>&1) <(mlir-opt-22 --irdl-file=%S/defs.irdl.mlir --split-input-file --verify-diagnostics --allow-unregistered-dialect %s 2>&1)
// RUN: diff <(silica opt --irdl-file=%S/defs.irdl.mlir --split-input-file --verify-diagnostics --allow-unregistered-dialect --mlir-print-op-generic %s 2>&1) <(mlir-opt-22 --irdl-file=%S/defs.irdl.mlir --split-input-file --verify-diagnostics --allow-unregistered-dialect --mlir-print-op-generic %s 2>&1)

func.func @ok(%a: i7, %f: !sil.fixed<i16, 3 : i64>, %l: !sil.list<!sil.list<i4>>, %u: !sil.unit_type) {
  %0 = "sil.add"(%a, %a) : (i7, i7) -> i7
  %1 = "sil.mul"(%f, %f) {round = #sil.rounding<"zero">} : (!sil.fixed<i16, 3 : i64>, !sil.fixed<i16, 3 : i64>) -> !sil.fixed<i16, 3 : i64>
  %c = arith.constant 1 : i32
  "sil.narrow"(%c) : (i32) -> ()
  return
}

// -----

func.func @operands_bind_once(%a: i8, %b: i9) {
  // expected-error@+1 {{expected 'i8' but got 'i9'}}
  %0 = "sil.add"(%a, %b) : (i8, i9) -> i8
  return
}

// -----

func.func @result_binds_too(%a: i8) {
  // expected-error@+1 {{expected 'i8' but got 'i16'}}
  %0 = "sil.add"(%a, %a) : (i8, i8) -> i16
  return
}

// -----

func.func @base_by_name(%a: f32) {
  // expected-error@+1 {{expected base type 'builtin.integer' but got 'builtin.f32'}}
  %0 = "sil.add"(%a, %a) : (f32, f32) -> f32
  return
}

// -----

func.func @missing_attribute(%f: !sil.fixed<i16, 3 : i64>) {
  // expected-error@+1 {{attribute "round" is expected but not provided}}
  %0 = "sil.mul"(%f, %f) : (!sil.fixed<i16, 3 : i64>, !sil.fixed<i16, 3 : i64>) -> !sil.fixed<i16, 3 : i64>
  return
}

// -----

func.func @attribute_of_wrong_base(%f: !sil.fixed<i16, 3 : i64>) {
  // expected-error@+1 {{expected base attribute 'sil.rounding' but got 'builtin.string'}}
  %0 = "sil.mul"(%f, %f) {round = "zero"} : (!sil.fixed<i16, 3 : i64>, !sil.fixed<i16, 3 : i64>) -> !sil.fixed<i16, 3 : i64>
  return
}

// -----

func.func @parametric_base(%a: i16) {
  // expected-error@+1 {{expected base type 'sil.fixed' but got 'i16'}}
  %0 = "sil.mul"(%a, %a) {round = #sil.rounding<"zero">} : (i16, i16) -> i16
  return
}

// -----

func.func @parametric_params(%f: !sil.fixed<i16, 3 : i64>, %g: !sil.fixed<i16, 4 : i64>) {
  // expected-error@+1 {{expected '!sil.fixed<i16, 3 : i64>' but got '!sil.fixed<i16, 4 : i64>'}}
  %0 = "sil.mul"(%f, %g) {round = #sil.rounding<"zero">} : (!sil.fixed<i16, 3 : i64>, !sil.fixed<i16, 4 : i64>) -> !sil.fixed<i16, 3 : i64>
  return
}

// -----

func.func @all_of(%x: f32) {
  // expected-error@+1 {{expected 'i32' but got 'f32'}}
  "sil.narrow"(%x) : (f32) -> ()
  return
}

// -----

func.func @any_of(%x: i64) {
  // expected-error@+1 {{'i64' does not satisfy the constraint}}
  "sil.narrow"(%x) : (i64) -> ()
  return
}

// -----

// expected-error@+1 {{'"up"' does not satisfy the constraint}}
"test.attr"() {mode = #sil.rounding<"up">} : () -> ()

// -----

// expected-error@+1 {{expected 2 type arguments, but had 1}}
func.func @type_arity(%f: !sil.fixed<i16>) {
  return
}

// -----

// expected-error@+1 {{expected base type 'builtin.integer' but got 'builtin.index'}}
func.func @type_param(%f: !sil.fixed<index, 3 : i64>) {
  return
}

// -----

// expected-error@+1 {{'f64' does not satisfy the constraint}}
func.func @cyclic(%l: !sil.list<!sil.list<f64>>) {
  return
}

// -----

// expected-error@+1 {{expected dynamic type}}
func.func @unknown_type(%l: !sil.nope) {
  return
}

// -----

func.func @segments(%h: i8, %b: i16, %t: index) {
  %0 = "sil.pack"(%h) {operandSegmentSizes = array<i32: 1, 0, 0>} : (i8) -> i8
  %1 = "sil.pack"(%h, %b, %b, %t) {operandSegmentSizes = array<i32: 1, 2, 1>} : (i8, i16, i16, index) -> i8
  %2:2 = "sil.two_lists"(%h, %h, %b) {operandSegmentSizes = array<i32: 2, 1>, resultSegmentSizes = array<i32: 1, 1>} : (i8, i8, i16) -> (i8, i16)
  return
}

// -----

func.func @too_few(%b: i16) {
  // expected-error@+1 {{op expects at least 1 operands, but got 0}}
  %0 = "sil.gather"() : () -> i8
  return
}

// -----

func.func @one_variadic(%h: i8) {
  %0 = "sil.gather"(%h, %h, %h) : (i8, i8, i8) -> i8
  // expected-error@+1 {{'operandSegmentSizes' attribute is expected but not provided}}
  %1 = "sil.pack"(%h) : (i8) -> i8
  return
}

// -----

func.func @segment_sum(%h: i8) {
  // expected-error@+1 {{sum of elements in 'operandSegmentSizes' attribute must be equal to the number of operands}}
  "sil.two_lists"(%h) {operandSegmentSizes = array<i32: 2, 0>, resultSegmentSizes = array<i32: 0, 0>} : (i8) -> ()
  return
}

// -----

func.func @results_exactly(%h: i8) {
  // expected-error@+1 {{op expects exactly 1 results, but got 0}}
  "sil.gather"(%h) : (i8) -> ()
  return
}

// -----

func.func @loop(%n: index) {
  "sil.loop"(%n) ({
  ^bb0(%i: index):
    "test.end"() : () -> ()
  }, {
    "test.end"() : () -> ()
  }, {
  ^bb0(%x: i1, %y: f32):
    "test.end"() : () -> ()
  ^bb1:
    "test.end"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @region_arg_type(%n: index) {
  // expected-note@+1 {{see the operation}}
  "sil.loop"(%n) ({
  // expected-error@+1 {{expected 'index' but got 'i32'}}
  ^bb0(%i: i32):
    "test.end"() : () -> ()
  }, {
    "test.end"() : () -> ()
  }, {
    "test.end"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @region_blocks(%n: index) {
  // expected-error@+1 {{expected region 1 to have 1 block(s) but got 2}}
  "sil.loop"(%n) ({
  ^bb0(%i: index):
    "test.end"() : () -> ()
  }, {
    "test.end"() : () -> ()
  ^bb1:
    "test.end"() : () -> ()
  }, {
    "test.end"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @region_count(%n: index) {
  // expected-error@+1 {{'sil.loop' op unexpected number of regions: expected 3 but got 1}}
  "sil.loop"(%n) ({
  ^bb0(%i: index):
    "test.end"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @unknown_op() {
  // expected-error@+1 {{unregistered operation 'sil.nope' found in dialect ('sil') that does not allow unknown operations}}
  "sil.nope"() : () -> ()
  return
}

// -----

func.func @no_properties(%a: i8) {
  // expected-error@+1 {{extensible Dialects don't support properties}}
  %0 = "sil.add"(%a, %a) <{x = 1}> : (i8, i8) -> i8
  return
}
