// gpu-to-llvm: the host function to the llvm dialect (its memref
// arguments expanded), the launch rebuilt on i64 sizes with each memref
// argument as its descriptor's fields (or its aligned pointer alone with
// use-bare-pointers-for-kernels), the device module's func.func converted
// too, the compiled module left; as mlir-opt-22 does it. (The launch is
// of a compiled module, whose kernels are not checked against the
// arguments, so that both conventions apply to one file;
// tests/gpu/pipeline.mlir converts launches of llvm.func kernels.)
// RUN: silica opt --gpu-to-llvm %s | FileCheck %s
// RUN: diff <(silica opt --gpu-to-llvm %s) <(mlir-opt-22 --gpu-to-llvm %s)
// RUN: silica opt --gpu-to-llvm=use-bare-pointers-for-kernels %s | FileCheck %s --check-prefix=BARE
// RUN: diff <(silica opt --gpu-to-llvm=use-bare-pointers-for-kernels %s) <(mlir-opt-22 --gpu-to-llvm=use-bare-pointers-for-kernels %s)
// RUN: not silica opt --gpu-to-llvm=use-bare-pointers-for-host %s 2>&1 | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: llvm.func @axpy(%arg0: f32, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: !llvm.ptr, %arg7: !llvm.ptr, %arg8: i64, %arg9: i64, %arg10: i64) {
// CHECK: %[[X:.*]] = llvm.insertvalue %arg5, %{{.*}}[4, 0]
// CHECK: %[[N:.*]] = llvm.mlir.constant(64 : index) : i64
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK: llvm.extractvalue %[[X]][0]
// CHECK: gpu.launch_func  @compiled::@axpy_kernel blocks in (%[[N]], %[[ONE]], %[[ONE]]) threads in (%[[ONE]], %[[ONE]], %[[ONE]]) : i64 args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64, %arg0 : f32)
// CHECK: gpu.module @device
// CHECK: llvm.func @helper(%arg0: i32) -> i32
// CHECK: gpu.binary @compiled
// BARE: gpu.launch_func  @compiled::@axpy_kernel blocks in (%{{.*}}) : i64 args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %arg0 : f32)
// HOST: gpu-to-llvm: use-bare-pointers-for-host is not supported by silica

module attributes {gpu.container_module} {
  func.func @axpy(%a: f32, %x: memref<64xf32>, %y: memref<64xf32>) {
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c1_0 = arith.constant 1 : index
    gpu.launch_func  @compiled::@axpy_kernel blocks in (%c64, %c1, %c1_0) threads in (%c1, %c1, %c1)  args(%x : memref<64xf32>, %y : memref<64xf32>, %a : f32)
    return
  }
  gpu.module @device [#nvvm.target<chip = "sm_90">] {
    func.func @helper(%a: i32) -> i32 {
      %c = arith.constant 1 : i32
      %s = arith.addi %a, %c : i32
      return %s : i32
    }
  }
  gpu.binary @compiled  [#gpu.object<#nvvm.target, assembly = "ptx">]
}
