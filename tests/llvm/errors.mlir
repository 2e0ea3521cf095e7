// llvm dialect verification with mlir-opt-22's messages: parameter and
// result attributes, var_callee_type of calls and invokes, cmpxchg
// orderings and result, atomic loads and stores, fences, atomicrmw
// operand types, direct calls against their callee's type, function
// attributes and linkage, common and appending globals, GEP indices into
// structs and scalars, and switch case types and branch weights.
// RUN: silica opt --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --split-input-file --verify-diagnostics %s

// expected-error@below {{"llvm.noalias" attribute attached to non-pointer LLVM type}}
llvm.func @noalias_on_int(%0 : i32 {llvm.noalias})

// -----

// expected-error@below {{"llvm.align" should be an integer attribute}}
llvm.func @align_kind(%0 : !llvm.ptr {llvm.align = "foo"})

// -----

// expected-error@below {{"llvm.zeroext" attribute attached to non-integer LLVM type}}
llvm.func @zeroext_on_float(%0 : f32 {llvm.zeroext})

// -----

// expected-error@below {{"llvm.sret" is not a valid result attribute}}
llvm.func @sret_result() -> (!llvm.ptr {llvm.sret = i32})

// -----

// expected-error@below {{expects result attribute array to have the same number of elements as the number of function results, got 1, but expected 0}}
llvm.func @void_result_attrs() attributes {res_attrs = [{llvm.noundef}]}

// -----

llvm.func @variadic(%arg: i32, ...)

llvm.func @too_many_params(%arg: i32) {
  // expected-error@below {{expected var_callee_type to have at most 1 parameters}}
  llvm.call @variadic(%arg) vararg(!llvm.func<void (i32, i64, ...)>) : (i32) -> ()
  llvm.return
}

// -----

llvm.func @mismatch(%callee: !llvm.ptr, %arg: i32) {
  // expected-error@below {{var_callee_type parameter type mismatch: 'i64' != 'i32'}}
  llvm.call %callee(%arg) vararg(!llvm.func<void (i64, ...)>) : !llvm.ptr, (i32) -> ()
  llvm.return
}

// -----

llvm.func @variadic(%arg: i32, ...) -> i32

llvm.func @result_mismatch(%arg: i32) {
  // expected-error@below {{var_callee_type return type mismatch: 'i8' != 'i32'}}
  %0 = llvm.call @variadic(%arg) vararg(!llvm.func<i8 (i32, ...)>) : (i32) -> (i32)
  llvm.return
}

// -----

llvm.func @non_variadic(%arg: i32)

llvm.func @invoke_not_variadic(%arg: i32) {
  // expected-error@below {{expected var_callee_type to be a variadic function type}}
  llvm.invoke @non_variadic(%arg) to ^bb2 unwind ^bb1 vararg(!llvm.func<void (i32)>) : (i32) -> ()
^bb1:
  llvm.return
^bb2:
  llvm.return
}

// -----

llvm.func @weak_failure(%p: !llvm.ptr, %v: i32) {
  // expected-error@+1 {{ordering must be at least 'monotonic'}}
  %0 = llvm.cmpxchg %p, %v, %v monotonic unordered : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @release_failure(%p: !llvm.ptr, %v: i32) {
  // expected-error@+1 {{failure ordering cannot be 'release' or 'acq_rel'}}
  %0 = llvm.cmpxchg %p, %v, %v acq_rel release : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @atomic_access(%p: !llvm.ptr, %f: f32, %b: i1) {
  // expected-error @+1 {{'llvm.load' op expected syncscope to be null for non-atomic access}}
  %0 = "llvm.load"(%p) {syncscope = "agent"} : (!llvm.ptr) -> i32
  llvm.return
}

// -----

llvm.func @atomic_access(%p: !llvm.ptr) {
  // expected-error @+1 {{'llvm.load' op unsupported ordering 'acq_rel'}}
  %0 = llvm.load %p atomic acq_rel {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.return
}

// -----

llvm.func @atomic_access(%p: !llvm.ptr, %v: i24) {
  // expected-error @+1 {{'llvm.store' op unsupported type 'i24' for atomic access}}
  llvm.store %v, %p atomic seq_cst {alignment = 4 : i64} : i24, !llvm.ptr
  llvm.return
}

// -----

llvm.func @atomic_access(%p: !llvm.ptr, %v: f64) {
  // expected-error @+1 {{'llvm.store' op expected alignment for atomic access}}
  llvm.store %v, %p atomic release : f64, !llvm.ptr
  llvm.return
}

// -----

llvm.func @fence() {
  // expected-error @+1 {{'llvm.fence' op can be given only acquire, release, acq_rel, and seq_cst orderings}}
  llvm.fence unordered
  llvm.return
}

// -----

llvm.func @rmw(%p: !llvm.ptr, %v: i16) {
  // expected-error @+1 {{'llvm.atomicrmw' op expected LLVM IR floating point type}}
  %0 = llvm.atomicrmw fmax %p, %v monotonic : !llvm.ptr, i16
  llvm.return
}

// -----

llvm.func @rmw(%p: !llvm.ptr, %v: i128) {
  // expected-error @+1 {{'llvm.atomicrmw' op expected LLVM IR integer type}}
  %0 = llvm.atomicrmw umin %p, %v monotonic : !llvm.ptr, i128
  llvm.return
}

// -----

llvm.func @rmw(%p: !llvm.ptr, %v: i32) {
  // expected-error @+1 {{'llvm.atomicrmw' op failed to verify that result #0 and operand #1 have the same type}}
  %0 = "llvm.atomicrmw"(%p, %v) {bin_op = 1 : i64, ordering = 2 : i64} : (!llvm.ptr, i32) -> i64
  llvm.return
}

// -----

llvm.func @cas(%p: !llvm.ptr, %v: i8) {
  // expected-error @+1 {{'llvm.cmpxchg' op failed to verify that result #0 has an LLVM struct type consisting of the type of operand #2 and a bool}}
  %0 = "llvm.cmpxchg"(%p, %v, %v) {success_ordering = 2 : i64, failure_ordering = 2 : i64} : (!llvm.ptr, i8, i8) -> !llvm.struct<(i8, i8)>
  llvm.return
}

// -----

llvm.func @calls() {
  // expected-error @+1 {{'llvm.call' op 'nowhere' does not reference a symbol in the current scope}}
  llvm.call @nowhere() : () -> ()
  llvm.return
}

// -----

func.func private @builtin_func()
llvm.func @calls() {
  // expected-error @+1 {{'llvm.call' op 'builtin_func' does not reference a valid LLVM function}}
  llvm.call @builtin_func() : () -> ()
  llvm.return
}

// -----

llvm.func @takes(i16) -> i32
llvm.func @calls(%a: i32) {
  // expected-error @+1 {{'llvm.call' op operand type mismatch for operand 0: 'i32' != 'i16'}}
  %0 = llvm.call @takes(%a) : (i32) -> i32
  llvm.return
}

// -----

llvm.func @takes(i16) -> i32
llvm.func @calls(%a: i16) {
  // expected-error @+1 {{'llvm.call' op expected function call to produce a value}}
  llvm.call @takes(%a) : (i16) -> ()
  llvm.return
}

// -----

llvm.func @takes(i16) -> i32
llvm.func @calls(%a: i16) {
  // expected-error @+1 {{'llvm.call' op result type mismatch: 'i64' != 'i32'}}
  %0 = llvm.call @takes(%a) : (i16) -> i64
  llvm.return
}

// -----

llvm.func @printf(!llvm.ptr, ...) -> i32
llvm.func @calls(%p: !llvm.ptr) {
  // expected-error @+1 {{'llvm.call' op missing var_callee_type attribute for vararg call}}
  %0 = "llvm.call"(%p) <{callee = @printf, operandSegmentSizes = array<i32: 1, 0>, op_bundle_sizes = array<i32>}> : (!llvm.ptr) -> i32
  llvm.return
}

// -----

// expected-error @+1 {{no_inline and always_inline attributes are incompatible}}
llvm.func @both() attributes {always_inline, no_inline} {
  llvm.return
}

// -----

// expected-error @+1 {{'llvm.func' op with optimize_none must also be no_inline}}
llvm.func @optnone() attributes {optimize_none} {
  llvm.return
}

// -----

// expected-error @+1 {{'llvm.func' op functions cannot have 'common' linkage}}
llvm.func common @shared() {
  llvm.return
}

// -----

// expected-error @+1 {{'llvm.func' op external functions must have 'external' or 'extern_weak' linkage}}
llvm.func internal @declared()

// -----

// expected-error @+1 {{'llvm.mlir.global' op expected zero value for 'common' linkage}}
llvm.mlir.global common @counter(3 : i64) : i64

// -----

// expected-error @+1 {{'llvm.mlir.global' op expected array type for 'appending' linkage}}
llvm.mlir.global appending @list() : i64

// -----

llvm.func @gep(%p: !llvm.ptr, %i: i64) {
  // expected-error @+1 {{'llvm.getelementptr' op expected index 1 indexing a struct to be constant}}
  %0 = llvm.getelementptr %p[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, i64)>
  llvm.return
}

// -----

llvm.func @gep(%p: !llvm.ptr) {
  // expected-error @+1 {{'llvm.getelementptr' op index 1 indexing a struct is out of bounds}}
  %0 = llvm.getelementptr %p[0, 5] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i64)>
  llvm.return
}

// -----

llvm.func @gep(%p: !llvm.ptr) {
  // expected-error @+1 {{'llvm.getelementptr' op type 'i32' cannot be indexed (index #2)}}
  %0 = llvm.getelementptr %p[0, 3, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i32>
  llvm.return
}

// -----

llvm.func @switch(%c: i32) {
  // expected-error @+1 {{expects number of branch weights to match number of successors: 1 vs 2}}
  llvm.switch %c : i32, ^bb1 [
    7: ^bb1
  ] {branch_weights = array<i32: 5>}
^bb1:
  llvm.return
}
