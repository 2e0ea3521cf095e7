// gpu-kernel-outlining: each gpu.launch becomes a kernel in a gpu.module
// of its own, named after its function and made unique, inserted after
// the function; the kernel takes the values the body uses from above,
// starts with the twelve ids and sizes, knows the launch's constant
// sizes; the launch becomes gpu.launch_func. The output is mlir-opt-22's.
// RUN: diff <(silica opt --split-input-file --gpu-kernel-outlining %s) <(mlir-opt-22 --split-input-file --gpu-kernel-outlining %s)

func.func @f(%a: memref<8xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %s = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%bx] : memref<8xf32>
    %w = arith.mulf %v, %s : f32
    memref.store %w, %a[%bx] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<8xf32>
    memref.store %v, %a[%bx] : memref<8xf32>
    gpu.terminator
  }
  return
}
func.func @g() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// A symbol of the kernel's name is taken: the module is @f_kernel_0.
func.func @f(%a: memref<8xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %i = %bx to %n step %c1 {
      %v = memref.load %a[%i] : memref<8xf32>
      memref.store %v, %a[%n] : memref<8xf32>
    }
    gpu.terminator
  }
  return
}
func.func @f_kernel() { return }

// -----

// No launch: nothing changes.
func.func @x() { return }
