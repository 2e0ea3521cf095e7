// silica cosim --gpu: the program run in software and with the kernel on
// the GPU (silica gpu's host side, the driver layer over the CUDA driver
// API); here behind silica's fake CUDA driver, which runs the kernels'
// CPU build block by block and thread by thread: the launch logic, the
// copies and the errors are the real driver layer's. Two kernels: the
// 24x40 update on 24 blocks of 40 threads, the row sums on 24 blocks of
// one thread (their inner loop carries a dependence).
// RUN: rm -rf %t
// RUN: silica cosim %s --kernel axpy --gpu --gpu-driver fake -o %t | FileCheck %s
// CHECK: GPU co-simulation of 'axpy': 24 lines of output identical
// CHECK-NEXT: axpy_kernel on 24x1x1 blocks of 40x1x1 threads
// CHECK-NEXT: axpy_kernel_0 on 24x1x1 blocks of 1x1x1 threads
// The driver layer's errors: a message and exit status 70, never a crash.
// RUN: not env SILICA_CUDA_LIBRARY=%t/libsilica_fake_cuda.so SILICA_FAKE_CUDA_FAIL=cuLaunchKernel %t/gpu 2>&1 | FileCheck %s --check-prefix=LAUNCH
// RUN: not env SILICA_CUDA_LIBRARY=%t/libsilica_fake_cuda.so SILICA_FAKE_CUDA_NO_DEVICE=1 %t/gpu 2>&1 | FileCheck %s --check-prefix=NODEVICE
// RUN: not env SILICA_CUDA_LIBRARY=%t/no-such-driver.so %t/gpu 2>&1 | FileCheck %s --check-prefix=NODRIVER
// RUN: env SILICA_CUDA_LIBRARY=%t/libsilica_fake_cuda.so SILICA_FAKE_CUDA_FAIL=cuMemcpyDtoH_v2 %t/gpu > /dev/null 2>&1; test $? -eq 70
// LAUNCH: silica gpu: error: the GPU: cuLaunchKernel failed with CUDA error 1 (invalid argument (fake driver))
// NODEVICE: silica gpu: error: the GPU: cuDeviceGet failed with CUDA error 100 (no CUDA-capable device is detected (fake driver))
// NODRIVER: silica gpu: error: no CUDA driver (install the NVIDIA driver, or set SILICA_CUDA_LIBRARY): {{.*}}no-such-driver.so
// --build-only builds both programs for a machine with a GPU.
// RUN: rm -rf %t.build
// RUN: silica cosim %s --kernel axpy --gpu --build-only -o %t.build | FileCheck %s --check-prefix=BUILD
// RUN: test -x %t.build/gpu && test -x %t.build/software
// BUILD: GPU co-simulation of 'axpy': programs built in {{.*}} (software, gpu)

llvm.mlir.global internal constant @fmt("%d: %d %d %d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// y = a * x + y over a 2-D array, then each row's sum into s (a
// reduction over j: its loop stays sequential in the kernel).
func.func @axpy(%a: i32, %x: memref<24x40xi32>, %y: memref<24x40xi32>, %s: memref<24xi32>) {
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 40 {
      %xv = affine.load %x[%i, %j] : memref<24x40xi32>
      %yv = affine.load %y[%i, %j] : memref<24x40xi32>
      %p = arith.muli %a, %xv : i32
      %r = arith.addi %p, %yv : i32
      affine.store %r, %y[%i, %j] : memref<24x40xi32>
    }
  }
  affine.for %i = 0 to 24 {
    %z = arith.constant 0 : i32
    affine.store %z, %s[%i] : memref<24xi32>
    affine.for %j = 0 to 40 {
      %v = affine.load %y[%i, %j] : memref<24x40xi32>
      %t = affine.load %s[%i] : memref<24xi32>
      %u = arith.addi %t, %v : i32
      affine.store %u, %s[%i] : memref<24xi32>
    }
  }
  return
}

func.func @main() -> i32 {
  %x = memref.alloc() : memref<24x40xi32>
  %y = memref.alloc() : memref<24x40xi32>
  %s = memref.alloc() : memref<24xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c24 = arith.constant 24 : index
  %c40 = arith.constant 40 : index
  %k = arith.constant 7919 : i32
  scf.for %i = %c0 to %c24 step %c1 {
    scf.for %j = %c0 to %c40 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %jj = arith.index_cast %j : index to i32
      %a = arith.muli %ii, %k : i32
      %b = arith.xori %a, %jj : i32
      memref.store %b, %x[%i, %j] : memref<24x40xi32>
      %c = arith.subi %jj, %a : i32
      memref.store %c, %y[%i, %j] : memref<24x40xi32>
    }
  }
  %three = arith.constant -3 : i32
  func.call @axpy(%three, %x, %y, %s) : (i32, memref<24x40xi32>, memref<24x40xi32>, memref<24xi32>) -> ()
  %f = llvm.mlir.addressof @fmt : !llvm.ptr
  scf.for %i = %c0 to %c24 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %sv = memref.load %s[%i] : memref<24xi32>
    %y0 = memref.load %y[%i, %c0] : memref<24x40xi32>
    %y1 = memref.load %y[%i, %c1] : memref<24x40xi32>
    %r = llvm.call @printf(%f, %ii, %sv, %y0, %y1) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i32, i32, i32) -> i32
  }
  %z = arith.constant 0 : i32
  return %z : i32
}
