// llvm dialect verification with mlir-opt-22's messages: parameter and
// result attributes, var_callee_type of calls and invokes, cmpxchg
// orderings.
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
