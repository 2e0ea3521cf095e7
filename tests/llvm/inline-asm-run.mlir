// x86 inline assembly computing 40 + 2, translated and run in lli-22.
// RUN: silica translate --to-llvmir %s -o %t.ll
// RUN: lli-22 %t.ll; test $? -eq 42
llvm.func @main() -> i32 {
  %c = llvm.mlir.constant(40 : i32) : i32
  %0 = llvm.inline_asm "leal 2($1), $0", "=r,r" %c : (i32) -> i32
  llvm.inline_asm has_side_effects "nop", "" : () -> ()
  llvm.return %0 : i32
}
