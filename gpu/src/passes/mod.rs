//! The passes from parallel loops to a launched kernel, with
//! mlir-opt-22's names, options and output.

pub mod affine_to_gpu;
pub mod attach_target;
mod libdevice;
pub mod map_parallel_loops;
pub mod outline;
pub mod parallel_to_gpu;
pub mod to_binary;
pub mod to_llvm;
pub mod to_nvvm;

use silica_ir::pass::PassInfo;

/// Every pass of the crate.
pub static PASSES: &[&PassInfo] = &[
    &map_parallel_loops::GPU_MAP_PARALLEL_LOOPS,
    &parallel_to_gpu::CONVERT_PARALLEL_LOOPS_TO_GPU,
    &affine_to_gpu::CONVERT_AFFINE_FOR_TO_GPU,
    &outline::GPU_KERNEL_OUTLINING,
    &attach_target::NVVM_ATTACH_TARGET,
    &to_nvvm::CONVERT_GPU_TO_NVVM,
    &to_llvm::GPU_TO_LLVM,
    &to_binary::GPU_MODULE_TO_BINARY,
];
