//! High-level synthesis from affine kernels.

pub mod cosim;
pub mod interface;
