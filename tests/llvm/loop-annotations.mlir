// Loop annotations are structured attributes: each part gets MLIR's alias
// (`#loop_unroll`, `#loop_annotation`, `#access_group`), parameters print
// in MLIR's order whatever order they were written in, and nested parts
// without an alias print as their parameters. convert-scf-to-cf puts a
// loop's annotation on its back edge (for, while and do-while). Memory
// accesses (memcpy and memset included) carry access groups, and llvm
// branches loop annotations, as inherent attributes (properties in the
// generic form, also when the generic form gives them as attributes).
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: diff <(silica opt --convert-scf-to-cf %s) <(mlir-opt-22 --convert-scf-to-cf %s)
// RUN: silica opt %s | FileCheck %s

// CHECK-DAG: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true, count = 4 : i32>
// CHECK-DAG: #[[GROUP:.*]] = #llvm.access_group<id = distinct[0]<>>
// CHECK-DAG: #llvm.loop_annotation<disableNonforced = true, unroll = #[[UNROLL]], mustProgress = true, parallelAccesses = #[[GROUP]]>
#group = #llvm.access_group<id = distinct[0]<>>
#annotation = #llvm.loop_annotation<mustProgress = true, unroll = <count = 4 : i32, disable = true>, disableNonforced = true, parallelAccesses = #group>
#followup = #llvm.loop_annotation<vectorize = <width = 8 : i32, followupAll = <disableNonforced = true>>>

func.func @for_loop(%lb: index, %ub: index, %step: index) {
  scf.for %i = %lb to %ub step %step {
  } {llvm.loop_annotation = #annotation}
  return
}

func.func @while_loop(%c: i1, %x: i32) -> i32 {
  %r = scf.while (%a = %x) : (i32) -> i32 {
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    %d = arith.addi %b, %b : i32
    scf.yield %d : i32
  } attributes {llvm.loop_annotation = #followup}
  return %r : i32
}

func.func @do_while(%c: i1) {
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    scf.yield
  } attributes {llvm.loop_annotation = #annotation}
  return
}

llvm.func @accesses(%p: !llvm.ptr, %v: i32) {
  %0 = llvm.load %p {access_groups = [#group], alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.store %v, %p {access_groups = [#group]} : i32, !llvm.ptr
  %1 = llvm.atomicrmw add %p, %v monotonic {access_groups = [#group]} : !llvm.ptr, i32
  %2 = llvm.cmpxchg %p, %v, %v acq_rel monotonic {access_groups = [#group]} : !llvm.ptr, i32
  llvm.return
}

llvm.func @generic(%p: !llvm.ptr, %n: i32) {
  "llvm.intr.memcpy"(%p, %p, %n) <{isVolatile = false}> {access_groups = [#group]} : (!llvm.ptr, !llvm.ptr, i32) -> ()
  llvm.br ^bb1 {loop_annotation = #annotation}
^bb1:
  llvm.return
}
