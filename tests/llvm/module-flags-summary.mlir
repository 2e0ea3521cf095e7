// A module flag whose profile summary is written over several lines
// prints on one line, as mlir-opt-22 prints it.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: silica opt %s | FileCheck %s

// CHECK: #llvm.mlir.module_flag<error, "ProfileSummary", #llvm.profile_summary<format = InstrProf, total_count = 263646, max_count = 86427, max_internal_count = 86427, max_function_count = 4691, num_counts = 3712, num_functions = 796, is_partial_profile = 0, partial_profile_ratio = 0.000000e+00 : f64, detailed_summary = <cut_off = 10000, min_count = 86427, num_counts = 1>>>]
module {
  llvm.module_flags [#llvm.mlir.module_flag<error, "ProfileSummary",
    #llvm.profile_summary<format = InstrProf, total_count = 263646, max_count = 86427,
      max_internal_count = 86427, max_function_count = 4691,
      num_counts = 3712, num_functions = 796,
      is_partial_profile = 0,
      partial_profile_ratio = 0.000000e+00 : f64,
      detailed_summary =
        <cut_off = 10000, min_count = 86427, num_counts = 1>
    >>]
}
