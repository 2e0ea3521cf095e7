// --mlir-print-skip-regions matches mlir-opt-22 (custom, generic and with
// locations); -o writes the file on success and leaves none on failure.
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-skip-regions %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-skip-regions %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-skip-regions --mlir-print-op-generic %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-skip-regions --mlir-print-op-generic %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-skip-regions --mlir-print-debuginfo %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-skip-regions --mlir-print-debuginfo %s)
// RUN: silica opt --allow-unregistered-dialect --mlir-print-skip-regions %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && silica opt --allow-unregistered-dialect %s -o %t/out.mlir && diff %t/out.mlir <(mlir-opt-22 --allow-unregistered-dialect %s)
// RUN: rm -rf %t && mkdir -p %t && ! silica opt %s -o %t/out.mlir && test -z "$(ls -A %t)"
// RUN: silica opt --allow-unregistered-dialect %s -o /dev/null

// CHECK: module @m attributes {foo.x = #map} {...}
// CHECK-NOT: foo.d

#map = affine_map<(d0) -> (d0 + 1)>
#unused = affine_map<(d0, d1) -> (d1)>
module @m attributes {foo.x = #map} {
  "foo.d"() ({
    "foo.e"() {a = #unused} : () -> ()
  }) : () -> ()
}
