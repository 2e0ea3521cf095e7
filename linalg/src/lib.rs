//! The `linalg` dialect on memrefs, as ML front ends (torch-mlir, IREE,
//! Allo) leave kernels: `linalg.generic` with its indexing maps,
//! iterator types and payload region, `linalg.index`, `linalg.yield`,
//! and the named ops `fill`, `copy`, `matmul`, `batch_matmul`, `matvec`,
//! `dot`, the 2-D convolutions (`conv_2d`, `conv_2d_nchw_fchw`,
//! `conv_2d_nhwc_hwcf`, grouped `conv_2d_ngchw_{gfchw,fgchw}`, depthwise
//! `depthwise_conv_2d_{nchw_chw,nhwc_hwc}`) and the max and sum poolings
//! (`nchw`, `nhwc`), each with the payload MLIR
//! builds for it
//! ([`structured`]), printed and parsed as mlir-opt-22 does
//! ([`dialect`]); and `convert-linalg-to-affine-loops` and
//! `convert-linalg-to-loops` ([`lower`]), with mlir-opt-22's output.

pub mod dialect;
pub mod lower;
pub mod structured;

pub use dialect::LINALG;

/// The passes of this crate.
pub static PASSES: &[&silica_ir::pass::PassInfo] = &[
    &lower::CONVERT_LINALG_TO_AFFINE_LOOPS,
    &lower::CONVERT_LINALG_TO_LOOPS,
];
