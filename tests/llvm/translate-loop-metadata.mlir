// Loop annotations on llvm branches become `!llvm.loop` metadata and
// access groups `!llvm.access.group`, with the hints mlir-translate-22
// writes (the metadata lines agree once numbers are erased and sorted);
// llvm-as-22 accepts the IR and the loop runs in lli-22.
// RUN: silica translate --to-llvmir %s -o %t.ours
// RUN: mlir-translate-22 --mlir-to-llvmir %s -o %t.ref
// RUN: llvm-as-22 %t.ours -o - | llvm-dis-22 | grep '^!' | grep -v 'module.flags\|Debug Info' | sed 's/![0-9]*/!/g' | sort > %t.ours.md
// RUN: llvm-as-22 %t.ref -o - | llvm-dis-22 | grep '^!' | grep -v 'module.flags\|Debug Info' | sed 's/![0-9]*/!/g' | sort > %t.ref.md
// RUN: diff %t.ours.md %t.ref.md
// RUN: FileCheck %s < %t.ours
// RUN: lli-22 %t.ours; test $? -eq 10

// CHECK: br i1 %{{.*}}, label %{{.*}}, label %{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// CHECK: load i32, ptr %{{.*}}, !llvm.access.group ![[GROUP:[0-9]+]]
// CHECK: br label %{{.*}}, !llvm.loop ![[LOOP]]
// CHECK-DAG: ![[LOOP]] = distinct !{![[LOOP]], ![[MUST:[0-9]+]], ![[UNROLL:[0-9]+]], ![[FOLLOW:[0-9]+]], ![[PAR:[0-9]+]]}
// CHECK-DAG: ![[MUST]] = !{!"llvm.loop.mustprogress"}
// CHECK-DAG: ![[UNROLL]] = !{!"llvm.loop.unroll.count", i32 4}
// CHECK-DAG: ![[FOLLOW]] = !{!"llvm.loop.unroll.followup_all", ![[NEXT:[0-9]+]]}
// CHECK-DAG: ![[NEXT]] = distinct !{![[NEXT]], ![[NONFORCED:[0-9]+]]}
// CHECK-DAG: ![[NONFORCED]] = !{!"llvm.loop.disable_nonforced"}
// CHECK-DAG: ![[GROUP]] = distinct !{}
// CHECK-DAG: ![[PAR]] = !{!"llvm.loop.parallel_accesses", ![[GROUP]]}

#group = #llvm.access_group<id = distinct[0]<>>
#loop = #llvm.loop_annotation<mustProgress = true, unroll = <count = 4 : i32, followupAll = <disableNonforced = true>>, parallelAccesses = #group>

llvm.func @main() -> i32 {
  %zero = llvm.mlir.constant(0 : i32) : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  %n = llvm.mlir.constant(4 : i32) : i32
  %slot = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
  llvm.store %zero, %slot : i32, !llvm.ptr
  llvm.br ^head(%zero : i32)
^head(%i: i32):
  %more = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %more, ^body, ^exit {loop_annotation = #loop}
^body:
  %acc = llvm.load %slot {access_groups = [#group]} : !llvm.ptr -> i32
  %next_acc = llvm.add %acc, %i : i32
  llvm.store %next_acc, %slot {access_groups = [#group]} : i32, !llvm.ptr
  %next = llvm.add %i, %one : i32
  llvm.br ^head(%next : i32) {loop_annotation = #loop}
^exit:
  %sum = llvm.load %slot : !llvm.ptr -> i32
  %result = llvm.add %sum, %n : i32
  llvm.return %result : i32
}
