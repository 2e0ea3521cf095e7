// The gpu and nvvm dialects print and parse as mlir-opt-22 does them, in
// the custom and the generic form: launches written in place and as
// calls of outlined kernels, device modules, functions with workgroup and
// private attributions, the id and size ops, the special registers and
// the target attribute, compiled modules (gpu.binary, #gpu.object).
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: diff <(silica opt %s | silica opt) <(mlir-opt-22 %s)

module attributes {gpu.container_module} {
  func.func @host(%a: memref<64xi32>, %n: index, %s: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %t = gpu.thread_id x
      %b = gpu.block_id y upper_bound 4
      %d = gpu.block_dim z
      %g = gpu.grid_dim x
      %l = gpu.lane_id
      %u = gpu.global_id x
      %v = gpu.cluster_id y
      %w = gpu.subgroup_id : index
      %sum = arith.addi %bx, %sz : index
      gpu.barrier
      gpu.terminator
    } {tag}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) dynamic_shared_memory_size %s workgroup(%wg : memref<4xf32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) {
      gpu.terminator
    }
    gpu.launch_func @k::@f blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>, %n : index)
    gpu.launch_func @k::@f blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %s args(%a : memref<64xi32>, %n : index) {tag}
    gpu.launch_func @k::@none blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @k [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80", flags = {fast, ftz}>] {
    gpu.func @f(%a: memref<64xi32>, %n: index) workgroup(%w: memref<32xf32, 3>) private(%p: memref<1xf32, 5>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %t = gpu.thread_id x
      gpu.return
    }
    gpu.func @none() kernel {
      gpu.return
    }
    gpu.func @g(%x: i32) -> i32 {
      gpu.return %x : i32
    }
  }
  gpu.module @default [#nvvm.target] {
  }
  gpu.module @nvvm {
    llvm.func @r() -> i32 attributes {nvvm.kernel} {
      %0 = nvvm.read.ptx.sreg.tid.x range <i32, 0, 32> : i32
      %1 = nvvm.read.ptx.sreg.nctaid.z : i32
      %2 = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
      nvvm.barrier0
      %3 = llvm.add %0, %1 : i32
      %4 = llvm.add %3, %2 : i32
      llvm.return %4 : i32
    }
  }
  gpu.module @map {
    func.func @m(%n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.parallel (%i) = (%c0) to (%n) step (%c1) {
        scf.reduce
      } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
      return
    }
  }
  // Compiled modules (gpu-module-to-binary) and a launch of one on i64
  // sizes (gpu-to-llvm): every object format and handler.
  gpu.binary @a <#gpu.select_object<1>> [#gpu.object<#nvvm.target, "BLOB">, #gpu.object<#nvvm.target<chip = "sm_90">, properties = {O = 2 : i32}, assembly = "x\0A">]
  gpu.binary @b {foo = 1} [#gpu.object<#nvvm.target, offload = "x">, #gpu.object<#nvvm.target, fatbin = "x">, #gpu.object<#nvvm.target, bin = "q">]
  gpu.binary @c <#gpu.select_object<#nvvm.target>> [#gpu.object<#nvvm.target, "x">]
  llvm.func @launch_binary(%n: i64, %p: !llvm.ptr, %f: f32) {
    gpu.launch_func  @a::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) : i64 args(%p : !llvm.ptr, %f : f32)
    llvm.return
  }
}
