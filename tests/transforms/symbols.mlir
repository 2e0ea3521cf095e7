// symbol-dce and symbol-privatize against mlir-opt-22.
// RUN: diff <(silica opt --symbol-dce --split-input-file %s) <(mlir-opt-22 --symbol-dce --split-input-file %s)
// RUN: diff <(silica opt --symbol-privatize=exclude=keep --split-input-file %s) <(mlir-opt-22 --symbol-privatize=exclude=keep --split-input-file %s)
// RUN: silica opt --symbol-dce --split-input-file %s | FileCheck %s

// CHECK-LABEL: module
// CHECK-NOT: @dead
// CHECK: func.func private @live
// CHECK: func.func @keep
module {
  func.func private @dead()
  func.func nested @dead_nested()
  func.func private @live()
  func.func private @chain() {
    return
  }
  func.func @keep() {
    call @live() : () -> ()
    return
  }
}

// -----

// CHECK: module @inner
// CHECK: func.func @inner_public
// CHECK-NOT: @gone
module {
  module @inner {
    func.func @inner_public() {
      return
    }
  }
  module @gone attributes {sym_visibility = "private"} {
    func.func @x() {
      return
    }
  }
  memref.global "private" @g : memref<4xi32> = dense<0>
  func.func @uses_global() -> memref<4xi32> {
    %0 = memref.get_global @g : memref<4xi32>
    return %0 : memref<4xi32>
  }
}
