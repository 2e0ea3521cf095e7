// RUN: silica opt --split-input-file --verify-diagnostics %s

llvm.func @must_tail(%arg0: i32) {
  // expected-error@+1 {{op tail call kind 'musttail' is not supported}}
  %0 = llvm.inline_asm tail_call_kind = <musttail> "foo", "=r,=r,r" %arg0 : (i32) -> !llvm.struct<(i8, i8)>
  llvm.return
}

// -----

llvm.func @not_a_string(%arg0: i32) {
  // expected-error@+1 {{integer literal not valid for specified type}}
  llvm.inline_asm 42, "r" %arg0 : (i32) -> ()
  llvm.return
}

// -----

llvm.func @not_a_string_either(%arg0: i32) {
  // expected-error@+1 {{custom op 'llvm.inline_asm' invalid kind of attribute specified}}
  llvm.inline_asm "nop", [1] %arg0 : (i32) -> ()
  llvm.return
}
