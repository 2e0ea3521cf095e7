//! High-level synthesis from affine kernels; empty until its issue.
