// Ports take a `loc(...)` after their type and attributes; it is kept in
// the module's `port_locs` (a port without one is located where it is
// written), printed with --mlir-print-debuginfo, and read back, aliases
// defined at the end of the file included.
// RUN: silica opt %s | silica opt | FileCheck %s --check-prefix=BASIC
// RUN: silica opt %s --mlir-print-debuginfo | silica opt --mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUG
// RUN: silica opt %s --mlir-print-debuginfo --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// BASIC: hw.module @test2(in %input : i7, out output : i7)
// BASIC: hw.module @test3(in %input : i7 {hw.arg = "arg"}, out output : i7 {hw.res = "res"})
// BASIC: hw.module.extern @test6(in %input : i7, out output : i7)
// BASIC: hw.module @aliased(in %a : i1, out b : i1)
// DEBUG: hw.module @test0(in %input : i7 loc("{{.*}}port-locations.mlir":[[# @LINE + 8]]:{{[0-9]+}}), out output : i7 loc({{.+}}))
// DEBUG: hw.module @test2(in %input : i7 loc("arg"), out output : i7 loc("res"))
// DEBUG: hw.module @test3(in %input : i7 {hw.arg = "arg"} loc("arg"), out output : i7 {hw.res = "res"} loc("res"))
// DEBUG: hw.module.extern @test6(in %input : i7 loc("arg"), out output : i7 loc("res"))
// DEBUG: hw.module @aliased(in %a : i1 loc("in_a"), out b : i1 loc("out_b"))
// GENERIC: #[[ARG:loc[0-9]+]] = loc("arg")
// GENERIC-NEXT: #[[RES:loc[0-9]+]] = loc("res")
// GENERIC: port_locs = [#[[ARG]], #[[RES]]], sym_name = "test2"
hw.module @test0(in %input: i7, out output: i7) { hw.output %input : i7 }
hw.module @test2(in %input: i7 loc("arg"), out output: i7 loc("res")) { hw.output %input : i7 }
hw.module @test3(in %input: i7 {hw.arg = "arg"} loc("arg"), out output: i7 {hw.res = "res"} loc("res")) { hw.output %input : i7 }
hw.module.extern @test6(in %input: i7 loc("arg"), out output: i7 loc("res"))
hw.module @aliased(in %a: i1 loc(#in_a), out b: i1 loc(#out_b)) { hw.output %a : i1 }
#in_a = loc("in_a")
#out_b = loc("out_b")
