// Locations as attribute values: their aliases (which, numbering, order),
// locations inside properties of unregistered ops (not aliased themselves
// but printed through aliases chosen elsewhere), nested fused locations
// flattened as MLIR's FusedLoc::get, `loc("n"(unknown))` as `loc("n")`;
// custom and generic form, with and without debug info, as mlir-opt-22.
// RUN: diff <(silica opt --allow-unregistered-dialect %s) <(mlir-opt-22 --allow-unregistered-dialect %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-debuginfo %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-debuginfo %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-op-generic %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-op-generic %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo %s)

#map0 = affine_map<(d0) -> (d0 + 1)>
#map1 = affine_map<(d0, d1) -> (d1, d0)>
#named = loc("kernel.cc":3:4 to 5:6)
"test.module"() ({
  "test.a"() {a = loc("x"), b = [#map0, loc(callsite("f" at "g":1:2))], c = loc(fused["p", "q"])} : () -> () loc(#named)
  "test.b"() {d = loc("x"), e = loc("callee"(unknown))} : () -> () loc("callee")
  "test.c"() ({
    "test.inner"() {f = loc(fused<"m">[fused<"m">["a":1:1, "b":2:2], "c":3:3, fused<"m">[unknown]])} : () -> () loc(unknown)
  }) {g = loc(callsite("callee"("x"("b.c":25:9)) at fused<#map1>[fused<#map0>["a.mlir":16:4], fused<[1, 2]>["callee", "a.mlir":22:10]]))} : () -> ()
  "test.d"() <{p = [loc(unknown), loc("x"), #map0, affine_map<(d0) -> (d0 * 2)>]}> {h = loc(unknown)} : () -> ()
  "test.e"() <{p = loc(callsite(callsite("x"("n") at callsite(unknown at unknown)) at "n"))}> : () -> () loc(fused["a":1:1, fused["b":2:2, unknown]])
}) : () -> ()
