// symbol-dce cannot see into an unregistered op with one region (it may
// be a symbol table): an error at that op, as mlir-opt-22 reports.
// RUN: silica opt --allow-unregistered-dialect --symbol-dce --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --symbol-dce --split-input-file --verify-diagnostics %s

module {
  func.func private @private_symbol()

  // expected-error@+1 {{contains potentially unknown symbol table}}
  "foo.possibly_unknown_symbol_table"() ({
  }) : () -> ()
}

// -----

module {
  func.func private @private_symbol()

  // expected-error@+1 {{operation contains potentially unknown symbol table, meaning that we can't reliable compute symbol uses}}
  func.func @user() {
    "foo.region"() ({
      "foo.use"() {ref = @private_symbol} : () -> ()
    }) : () -> ()
    return
  }
}
