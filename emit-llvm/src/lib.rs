//! The llvm dialect and LLVM IR emission; empty until its issue.
