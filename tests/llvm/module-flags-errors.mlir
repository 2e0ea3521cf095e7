// RUN: silica opt --split-input-file --verify-diagnostics %s

module {
  // expected-error@below {{only integer and string values are currently supported}}
  llvm.module_flags [#llvm.mlir.module_flag<error, "yolo", @foo>]
}

// -----

module {
  // expected-error@below {{'CG Profile' key expects an array of '#llvm.cgprofile_entry'}}
  llvm.module_flags [#llvm.mlir.module_flag<append, "CG Profile", 3 : i64>]
}

// -----

module {
  // expected-error@below {{'ProfileSummary' key expects a '#llvm.profile_summary' attribute}}
  llvm.module_flags [#llvm.mlir.module_flag<append, "ProfileSummary", 3 : i64>]
}

// -----

llvm.func @foo() {
  // expected-error@below {{must appear at the module level}}
  llvm.module_flags [#llvm.mlir.module_flag<error, "wchar_size", 4>]
  llvm.return
}

// -----

module {
  // expected-error@below {{expected a module flag attribute}}
  llvm.module_flags [4 : i32]
}
