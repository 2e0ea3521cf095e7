// silica gpu: a kernel's parallel loops mapped to blocks (i) and threads
// (j), outlined and lowered to NVVM (F.gpu.mlir), the device LLVM IR,
// PTX from llc-22 with the kernel's entry and its parameters (each
// memref as its descriptor's fields), the host side calling the driver
// layer, its C declaration, and the kernels' CPU build.
// RUN: rm -rf %t
// RUN: silica gpu %s --top gemm -o %t --chip sm_80 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm.ptx
// RUN: FileCheck %s --check-prefix=DEVICE < %t/gemm.device.ll
// RUN: FileCheck %s --check-prefix=HOST < %t/gemm_host.ll
// RUN: FileCheck %s --check-prefix=HEADER < %t/gemm.h
// RUN: FileCheck %s --check-prefix=CPU < %t/gemm.cpu.ll
// RUN: llc-22 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 %t/gemm.device.ll -o /dev/null
// RUN: test -f %t/silica_gpu.h && test -f %t/silica_gpu.c && test -f %t/fake_cuda.c
// No parallel loop: a note, and the kernel on one thread.
// RUN: silica gpu %s --top prefix -o %t.one | FileCheck %s --check-prefix=ONE
// RUN: FileCheck %s --check-prefix=ONEHOST < %t.one/prefix_host.ll
// math in a kernel: the device library's sqrt is LLVM's exact one on the
// GPU; a function silica has no exact GPU code for (libdevice's exp,
// which silica does not link) is an error naming it.
// RUN: silica gpu %s --top root -o %t.root | FileCheck %s --check-prefix=ROOT
// RUN: FileCheck %s --check-prefix=ROOTLL < %t.root/root.device.ll
// RUN: not silica gpu %s --top expo -o %t.expo 2>&1 | FileCheck %s --check-prefix=EXPO
// Bad input: no such function; a kernel with results.
// RUN: not silica gpu %s --top nothing -o %t.bad 2>&1 | FileCheck %s --check-prefix=NOTOP
// RUN: test ! -e %t.bad
// RUN: not silica gpu %s --top sum -o %t.bad 2>&1 | FileCheck %s --check-prefix=RESULT

// CHECK: silica gpu: 'gemm' for sm_80: 1 kernel(s) (gemm_kernel); gemm.ptx, gemm_host.ll, gemm.h in
// PTX: .target sm_80
// PTX: .visible .entry gemm_kernel(
// PTX-COUNT-23: .param
// PTX: mov.u32 {{.*}}%ctaid.x
// PTX: mov.u32 {{.*}}%tid.x
// DEVICE: target triple = "nvptx64-nvidia-cuda"
// DEVICE: define ptx_kernel void @gemm_kernel(
// DEVICE: call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// HOST: @__silica_gpu_ptx = private constant
// HOST: define void @gemm(ptr
// HOST: call void @silica_gpu_load(ptr @__silica_gpu_ptx)
// HOST: call void @silica_gpu_launch(ptr @__silica_gpu_name_gemm_kernel, i64 16, i64 1, i64 1, i64 12, i64 1, i64 1, i32 5,
// HEADER: void gemm(int32_t* arg0_allocated, int32_t* arg0_aligned, int64_t arg0_offset, int64_t arg0_size0, int64_t arg0_size1, int64_t arg0_stride0, int64_t arg0_stride1,
// CPU: define void @gemm_kernel(
// CPU: call i32 @silica_fake_cuda_register(i32 6)
// CPU: define void @gemm_kernel_silica_cpu(ptr
// ONE: note: 'prefix' has no parallel loop (by the exact dependence analysis): it runs on one GPU thread
// ONE-NEXT: silica gpu: 'prefix' for sm_90: 1 kernel(s) (prefix_kernel)
// ONEHOST: call void @silica_gpu_launch(ptr @__silica_gpu_name_prefix_kernel, i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, i32 1,
// ROOT: silica gpu: 'root' for sm_90: 1 kernel(s) (root_kernel)
// ROOTLL: define internal float @__nv_sqrtf(float
// ROOTLL: call float @llvm.sqrt.f32(
// EXPO: error: the kernel calls '__nv_expf' of CUDA's device library (libdevice), which silica does not link
// NOTOP: error: no function 'nothing' in the module
// RESULT: silica-gpu.mlir:{{[0-9]+}}:1: error: 'sum' returns values: a GPU kernel writes its results to memrefs

func.func @gemm(%A: memref<16x8xi32>, %B: memref<8x12xi32>, %C: memref<16x12xi32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 12 {
      affine.for %k = 0 to 8 {
        %a = affine.load %A[%i, %k] : memref<16x8xi32>
        %b = affine.load %B[%k, %j] : memref<8x12xi32>
        %c = affine.load %C[%i, %j] : memref<16x12xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<16x12xi32>
      }
    }
  }
  return
}

func.func @sum(%x: memref<8xi32>) -> i32 {
  %z = arith.constant 0 : i32
  %r = affine.for %i = 0 to 8 iter_args(%acc = %z) -> i32 {
    %v = affine.load %x[%i] : memref<8xi32>
    %s = arith.addi %acc, %v : i32
    affine.yield %s : i32
  }
  return %r : i32
}

func.func @prefix(%x: memref<16xi32>) {
  affine.for %i = 1 to 16 {
    %a = affine.load %x[%i - 1] : memref<16xi32>
    %b = affine.load %x[%i] : memref<16xi32>
    %s = arith.addi %a, %b : i32
    affine.store %s, %x[%i] : memref<16xi32>
  }
  return
}

func.func @root(%x: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %v = affine.load %x[%i] : memref<64xf32>
    %r = math.sqrt %v : f32
    affine.store %r, %x[%i] : memref<64xf32>
  }
  return
}

func.func @expo(%x: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %v = affine.load %x[%i] : memref<64xf32>
    %r = math.exp %v : f32
    affine.store %r, %x[%i] : memref<64xf32>
  }
  return
}
