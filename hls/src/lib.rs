//! High-level synthesis from affine kernels.

pub mod interface;
