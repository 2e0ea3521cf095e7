//! The affine dialect (and, with its issue, the polyhedral layer): the
//! core ops in MLIR's syntax (`dialect`).

mod bounds;
pub mod canonicalize;
pub mod dialect;
pub mod expand_strided_metadata;
mod for_fold;
mod index_ops;
mod load_fold;
pub mod loop_min_max;
pub mod lower;
mod min_max;
pub mod parallel;
mod reshape_folders;
pub mod scope;
mod strided_metadata_folders;
mod verify;

pub use dialect::AFFINE;
