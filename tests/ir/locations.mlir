// Locations and location aliases with --mlir-print-debuginfo.
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-debuginfo %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-debuginfo %s)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-op-generic %s) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-op-generic %s)

#loc0 = loc("defined.c":3:4)
"foo.a"() : () -> () loc("file.c":1:2)
"foo.b"() : () -> () loc(unknown)
"foo.c"() : () -> () loc("name"("file.c":2:3))
"foo.d"() : () -> () loc(callsite("callee.c":1:1 at "caller.c":2:2))
"foo.e"() : () -> () loc(fused["a.c":1:1, "b.c":2:2])
"foo.f"() : () -> () loc(fused<"meta">["a.c":1:1, unknown])
"foo.g"() : () -> () loc("range.c":1:2 to 3:4)
"foo.h"() : () -> () loc("range.c":1:2 to :9)
"foo.i"() : () -> () loc(#loc0)
"foo.j"() : () -> () loc(#later)
"foo.k"() {l = loc("attr.c":5:5)} : () -> ()
"foo.l"() ({
^bb0(%arg: i32 loc("arg.c":7:7)):
  "foo.m"() : () -> () loc("name-only")
}) : () -> ()
// Function arguments carry `loc(...)` after their attributes, aliases
// defined later too; a declaration's argument locations are dropped.
func.func @located(%a: i32 {foo.x} loc("a.c":1:1), %b: i32 loc(#later)) {
  return
}
func.func private @declared(i32 loc("d.c":2:2))
#later = loc("late.c":9:9)
