// `llvm.intr.invariant.start`/`end` and `launder`/`strip.invariant.group`:
// custom and generic forms as mlir-opt-22 prints them, translated to
// LLVM's intrinsics (overloaded on the pointer's address space).
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: silica translate --to-llvmir %s | FileCheck %s
// RUN: silica translate --to-llvmir %s | llvm-as-22 -o /dev/null

// CHECK: %[[S:.*]] = call ptr @llvm.invariant.start.p1(i64 16, ptr addrspace(1) %[[P:.*]])
// CHECK-NEXT: call void @llvm.invariant.end.p1(ptr %[[S]], i64 16, ptr addrspace(1) %[[P]])
// CHECK-NEXT: call ptr addrspace(1) @llvm.launder.invariant.group.p1(ptr addrspace(1) %[[P]])
// CHECK-NEXT: call ptr addrspace(1) @llvm.strip.invariant.group.p1(ptr addrspace(1) %[[P]])
// CHECK: %{{.*}} = call ptr @llvm.invariant.start.p0(i64 4, ptr %{{.*}})
llvm.func @invariant(%p: !llvm.ptr<1>) {
  %1 = llvm.intr.invariant.start 16, %p : !llvm.ptr<1>
  llvm.intr.invariant.end %1, 16, %p : !llvm.ptr<1>
  %2 = llvm.intr.launder.invariant.group %p : !llvm.ptr<1>
  %3 = llvm.intr.strip.invariant.group %p : !llvm.ptr<1>
  llvm.return
}
llvm.func @flat(%p: !llvm.ptr) -> !llvm.ptr {
  %1 = llvm.intr.invariant.start 4, %p : !llvm.ptr
  llvm.return %1 : !llvm.ptr
}
