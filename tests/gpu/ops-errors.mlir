// A launch must match its kernel: the module and function exist, the
// function is a kernel, and the arguments are its parameters.
// RUN: not silica opt --split-input-file %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  func.func @h(%n: index) {
    // CHECK: ops-errors.mlir:[[@LINE+1]]:5: error: 'gpu.launch_func' op got 1 kernel operands but expected 0
    gpu.launch_func @k::@f blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%n : index)
    return
  }
  gpu.module @k {
    gpu.func @f() kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @h(%n: index) {
    // CHECK: ops-errors.mlir:[[@LINE+1]]:5: error: 'gpu.launch_func' op kernel container 'missing' is undefined
    gpu.launch_func @missing::@f blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

gpu.module @k {
  // CHECK: ops-errors.mlir:[[@LINE+1]]:3: error: 'gpu.func' op expected void return type for kernel function
  gpu.func @f(%x: i32) -> i32 kernel {
    gpu.return %x : i32
  }
}

// -----

func.func @h() {
  // CHECK: ops-errors.mlir:[[@LINE+1]]:22: error: custom op 'gpu.thread_id' expected ::mlir::gpu::Dimension to be one of: x, y, z
  %0 = gpu.thread_id w
  return
}
