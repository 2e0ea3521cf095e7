// llvm op checks with mlir-opt-22's messages: landingpad clauses and
// personality, consistent landingpad/resume types, call types (trailing
// types, results, LLVM-compatible operands), aggregate positions and
// insert/extract types, GEP operand and index counts, comparison
// predicates, alloca alignment, vector element types and constant types.
// RUN: silica opt --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --split-input-file --verify-diagnostics %s

llvm.func @foo(i32) -> i32
llvm.func @__gxx_personality_v0(...) -> i32
llvm.func @bad_clause(%arg0: !llvm.ptr) -> i32 attributes {personality = @__gxx_personality_v0} {
  %0 = llvm.mlir.constant(2 : i32) : i32
  %1 = llvm.invoke @foo(%0) to ^bb1 unwind ^bb2 : (i32) -> i32
^bb1:
  llvm.return %1 : i32
^bb2:
  // expected-error@+1 {{clause #0 is not a known constant - null, addressof, bitcast}}
  %2 = llvm.landingpad (catch %arg0 : !llvm.ptr) : !llvm.struct<(ptr, i32)>
  llvm.return %0 : i32
}

// -----

llvm.func @foo(i32) -> i32
llvm.func @__gxx_personality_v0(...) -> i32
llvm.func @cast_clause(%arg0: i32) -> i32 attributes {personality = @__gxx_personality_v0} {
  %0 = llvm.mlir.constant(1 : i32) : i32
  %1 = llvm.alloca %0 x !llvm.ptr : (i32) -> !llvm.ptr
  // expected-note@+1 {{global addresses expected as operand to bitcast used in clauses for landingpad}}
  %2 = llvm.bitcast %1 : !llvm.ptr to !llvm.ptr
  %3 = llvm.invoke @foo(%0) to ^bb1 unwind ^bb2 : (i32) -> i32
^bb1:
  llvm.return %0 : i32
^bb2:
  // expected-error@+1 {{constant clauses expected}}
  %4 = llvm.landingpad (catch %2 : !llvm.ptr) : !llvm.struct<(ptr, i32)>
  llvm.return %0 : i32
}

// -----

llvm.func @foo(i32) -> i32
llvm.func @__gxx_personality_v0(...) -> i32
llvm.func @no_clause(%arg0: i32) -> i32 attributes {personality = @__gxx_personality_v0} {
  %0 = llvm.invoke @foo(%arg0) to ^bb1 unwind ^bb2 : (i32) -> i32
^bb1:
  llvm.return %0 : i32
^bb2:
  // expected-error@+1 {{landingpad instruction expects at least one clause or cleanup attribute}}
  %1 = llvm.landingpad : !llvm.struct<(ptr, i32)>
  llvm.return %arg0 : i32
}

// -----

llvm.func @foo(i32) -> i32
llvm.func @no_personality(%arg0: i32) -> i32 {
  %0 = llvm.invoke @foo(%arg0) to ^bb1 unwind ^bb2 : (i32) -> i32
^bb1:
  llvm.return %0 : i32
^bb2:
  // expected-error@+1 {{llvm.landingpad needs to be in a function with a personality}}
  %1 = llvm.landingpad cleanup : !llvm.struct<(ptr, i32)>
  llvm.resume %1 : !llvm.struct<(ptr, i32)>
}

// -----

llvm.func @foo(i32) -> i32
llvm.func @__gxx_personality_v0(...) -> i32
// expected-error@below {{'llvm.landingpad' should have a consistent result type inside a function}}
llvm.func @two_pad_types(%arg0: i32) -> i32 attributes {personality = @__gxx_personality_v0} {
  %0 = llvm.invoke @foo(%arg0) to ^bb1 unwind ^bb2 : (i32) -> i32
^bb1:
  %1 = llvm.invoke @foo(%0) to ^bb3 unwind ^bb4 : (i32) -> i32
^bb2:
  %2 = llvm.landingpad cleanup : !llvm.struct<(ptr, i32)>
  llvm.resume %2 : !llvm.struct<(ptr, i32)>
^bb3:
  llvm.return %1 : i32
^bb4:
  %3 = llvm.landingpad cleanup : i32
  llvm.resume %3 : i32
}

// -----

llvm.func @indirect(%callee: !llvm.ptr, %arg: i8) {
  // expected-error@+1 {{expected indirect call to have 2 trailing types}}
  llvm.call %callee(%arg) : (i8) -> (i8)
  llvm.return
}

// -----

llvm.func @callee(i8) -> i8
llvm.func @direct(%arg: i8) {
  // expected-error@+2 {{expected '('}}
  // expected-error@+1 {{expected direct call to have 1 trailing type}}
  llvm.call @callee(%arg) : !llvm.ptr, (i8) -> (i8)
  llvm.return
}

// -----

llvm.func @void_result(%callee: !llvm.ptr, %arg: i8) {
  // expected-error@+1 {{expected a non-void result type}}
  llvm.call %callee(%arg) : !llvm.ptr, (i8) -> (!llvm.void)
  llvm.return
}

// -----

llvm.func @two_results(%callee: !llvm.ptr) {
  // expected-error@+1 {{expected function with 0 or 1 result}}
  llvm.call %callee() : !llvm.ptr, () -> (i32, i32)
  llvm.return
}

// -----

func.func @tensor_argument(%callee: !llvm.ptr, %t: tensor<4xi32>) {
  // expected-error@+1 {{'llvm.call' op operand #1 must be variadic of LLVM dialect-compatible type, but got 'tensor<4xi32>'}}
  "llvm.call"(%callee, %t) {operandSegmentSizes = array<i32: 2, 0>, op_bundle_sizes = array<i32>} : (!llvm.ptr, tensor<4xi32>) -> ()
  return
}

// -----

llvm.func @out_of_bounds(%a: !llvm.array<1 x i32>) {
  // The parser reports a bad position where it stands after the type.
  // expected-error@+2 {{custom op 'llvm.extractvalue' position out of bounds: 1}}
  %0 = llvm.extractvalue %a[1] : !llvm.array<1 x i32>
  llvm.return
}

// -----

llvm.func @into_scalar(%a: !llvm.struct<(i32)>, %v: i32) {
  // expected-error@+2 {{custom op 'llvm.insertvalue' expected LLVM IR structure/array type, got: 'i32'}}
  %0 = llvm.insertvalue %v, %a[0, 0] : !llvm.struct<(i32)>
  llvm.return
}

// -----

llvm.func @insert_mismatch(%a: !llvm.array<1 x i32>) {
  // expected-error@+1 {{'llvm.insertvalue' op Type mismatch: cannot insert '!llvm.array<1 x i32>' into '!llvm.array<1 x i32>'}}
  %0 = "llvm.insertvalue"(%a, %a) {position = array<i64: 0>} : (!llvm.array<1 x i32>, !llvm.array<1 x i32>) -> !llvm.array<1 x i32>
  llvm.return
}

// -----

llvm.func @gep_types(%base: !llvm.ptr, %i: i64) {
  // expected-error@+1 {{number of operands and types do not match: got 2 operands and 1 types}}
  %0 = llvm.getelementptr %base[%i] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.return
}

// -----

llvm.func @gep_raw(%base: !llvm.ptr) {
  // expected-error@+1 {{expected as many dynamic indices as specified in 'rawConstantIndices'}}
  %0 = "llvm.getelementptr"(%base) {elem_type = f32, rawConstantIndices = array<i32: -2147483648>} : (!llvm.ptr) -> !llvm.ptr
  llvm.return
}

// -----

llvm.func @predicate(%a: i32) {
  // expected-error@+1 {{'lt' is an incorrect value of the 'predicate' attribute}}
  %0 = llvm.icmp "lt" %a, %a : i32
  llvm.return
}

// -----

llvm.func @alignment(%n: i64) {
  // expected-error@+1 {{expected integer alignment}}
  %0 = llvm.alloca %n x i32 {alignment = 4.0} : (i64) -> !llvm.ptr
  llvm.return
}

// -----

llvm.func @element(%v: vector<4xf32>, %i: i32) {
  // expected-error@+1 {{failed to verify that result type matches vector element type}}
  %0 = "llvm.extractelement"(%v, %i) : (vector<4xf32>, i32) -> f64
  llvm.return
}

// -----

func.func @zero() {
  // expected-error@+1 {{'llvm.mlir.zero' op result #0 must be LLVM dialect-compatible type, but got 'tensor<4xi32>'}}
  %0 = llvm.mlir.zero : tensor<4xi32>
  return
}

// -----

llvm.func @ptr_to_int(%p: !llvm.ptr) {
  // expected-error@+1 {{can only cast pointers from and to pointers}}
  %0 = llvm.bitcast %p : !llvm.ptr to i64
  llvm.return
}

// -----

llvm.func @vector_to_ptr(%v: vector<2x!llvm.ptr>) {
  // expected-error@+1 {{cannot cast vector of pointers to pointer}}
  %0 = llvm.bitcast %v : vector<2x!llvm.ptr> to !llvm.ptr
  llvm.return
}

// -----

llvm.func @address_spaces(%p: !llvm.ptr<1>) {
  // expected-error@+1 {{cannot cast pointers of different address spaces, use 'llvm.addrspacecast' instead}}
  %0 = llvm.bitcast %p : !llvm.ptr<1> to !llvm.ptr
  llvm.return
}

// -----

llvm.func @narrowing(%a: i32) {
  // expected-error@+1 {{integer width of the output type is smaller or equal to the integer width of the input type}}
  %0 = llvm.sext %a : i32 to i16
  llvm.return
}

// -----

llvm.func @vector_shapes(%a: vector<2xi32>) {
  // expected-error@+1 {{input and output vectors are of incompatible shape}}
  %0 = llvm.zext %a : vector<2xi32> to vector<4xi64>
  llvm.return
}

// -----

llvm.func @target_alloca() {
  %0 = llvm.mlir.constant(1 : i64) : i64
  // expected-error@+1 {{this target extension type cannot be used in alloca}}
  %1 = llvm.alloca %0 x !llvm.target<"no_alloca"> : (i64) -> !llvm.ptr
  llvm.return
}

// -----

llvm.func @target_zero() {
  // expected-error@+1 {{target extension type does not support zero-initializer}}
  %0 = llvm.mlir.zero : !llvm.target<"no_zero">
  llvm.return
}

// -----

llvm.func @groups(%p: !llvm.ptr) {
  // expected-error@below {{attribute 'access_groups' failed to satisfy constraint: LLVM dialect access group metadata array}}
  %0 = llvm.load %p {access_groups = [@groups]} : !llvm.ptr -> i32
  llvm.return
}

// -----

llvm.func @scopes(%p: !llvm.ptr, %v: i32) {
  // expected-error@below {{attribute 'noalias_scopes' failed to satisfy constraint: LLVM dialect alias scope array}}
  llvm.store %v, %p {noalias_scopes = "scope"} : i32, !llvm.ptr
  llvm.return
}
