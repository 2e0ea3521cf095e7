// finalize-memref-to-llvm reserves the names of the runtime functions it
// calls: an llvm.func of that name and another type fails the pass at
// that function, as in MLIR (checked against mlir-opt-22 too).
// RUN: silica opt --finalize-memref-to-llvm --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --finalize-memref-to-llvm --split-input-file --verify-diagnostics %s

// expected-error @+1 {{redefinition of reserved function 'malloc' of different type '!llvm.func<ptr (i32)>' is prohibited}}
llvm.func @malloc(i32) -> !llvm.ptr
func.func @heap() {
  %m = memref.alloc() : memref<16xf32>
  return
}

// -----

// expected-error @+1 {{redefinition of reserved function 'free' of different type '!llvm.func<i32 (ptr)>' is prohibited}}
llvm.func @free(!llvm.ptr) -> i32
func.func @release(%m: memref<16xf32>) {
  memref.dealloc %m : memref<16xf32>
  return
}
