//! The affine dialect (and, with its issue, the polyhedral layer): the
//! core ops in MLIR's syntax (`dialect`).

pub mod canonicalize;
pub mod dialect;
pub mod expand_strided_metadata;
pub mod lower;
pub mod parallel;
pub mod scope;
mod verify;

pub use dialect::AFFINE;
