// Block addresses and indirect branches: `llvm.blocktag` marks a block,
// `llvm.blockaddress` takes its address, `llvm.indirectbr` jumps through
// one (with block arguments). Printing and the generic form match
// mlir-opt-22 byte for byte; the translation is valid LLVM IR that runs
// in lli-22 as mlir-translate-22's does; tags are checked as MLIR checks
// them.
// RUN: silica opt %s > %t.ours
// RUN: mlir-opt-22 %s > %t.ref
// RUN: diff %t.ref %t.ours
// RUN: silica opt %s --mlir-print-op-generic > %t.ours.g
// RUN: mlir-opt-22 %s --mlir-print-op-generic > %t.ref.g
// RUN: diff %t.ref.g %t.ours.g
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: llvm-as-22 %t.ll -o /dev/null
// RUN: lli-22 %t.ll; test $? -eq 57
// RUN: mlir-translate-22 --mlir-to-llvmir %s -o %t.ref.ll
// RUN: lli-22 %t.ref.ll; test $? -eq 57
// RUN: silica opt --split-input-file --verify-diagnostics %S/blockaddress-errors.txt
// RUN: mlir-opt-22 --split-input-file --verify-diagnostics %S/blockaddress-errors.txt

// CHECK: @entry = private global ptr blockaddress(@pick, %bb2)
// CHECK-LABEL: define i32 @pick(i1 %a0)
// CHECK: select i1 %a0, ptr blockaddress(@pick, %bb1), ptr blockaddress(@pick, %bb2)
// CHECK: indirectbr ptr %{{.+}}, [label %bb1, label %bb2]
// CHECK: bb1:
// CHECK-NEXT: phi i32 [ 7, %bb0 ]
llvm.func @pick(%c: i1) -> i32 {
  %a = llvm.blockaddress <function = @pick, tag = <id = 1>> : !llvm.ptr
  %b = llvm.blockaddress <function = @pick, tag = <id = 2>> : !llvm.ptr
  %t = llvm.select %c, %a, %b : i1, !llvm.ptr
  %x = llvm.mlir.constant(7 : i32) : i32
  llvm.indirectbr %t : !llvm.ptr, [
  ^bb1(%x : i32),
  ^bb2
  ]
^bb1(%v: i32):
  llvm.blocktag <id = 1>
  llvm.return %v : i32
^bb2:
  llvm.blocktag <id = 2>
  %z = llvm.mlir.constant(5 : i32) : i32
  llvm.return %z : i32
}

// A global initialised with a block's address.
llvm.mlir.global private @entry() {addr_space = 0 : i32} : !llvm.ptr {
  %0 = llvm.blockaddress <function = @pick, tag = <id = 2>> : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

llvm.func @main() -> i32 {
  %t = llvm.mlir.constant(true) : i1
  %f = llvm.mlir.constant(false) : i1
  %ten = llvm.mlir.constant(10 : i32) : i32
  %0 = llvm.call @pick(%t) : (i1) -> i32
  %1 = llvm.call @pick(%f) : (i1) -> i32
  %2 = llvm.mul %1, %ten : i32
  %3 = llvm.add %0, %2 : i32
  llvm.return %3 : i32
}
