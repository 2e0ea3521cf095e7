//! The affine dialect (and, with its issue, the polyhedral layer): the
//! core ops in MLIR's syntax (`dialect`), and the loop utilities
//! (`loops`) with the unrolling passes over them (`unroll_passes`).

mod bounds;
pub mod canonicalize;
pub mod coalesce;
pub mod coalesce_scf;
pub mod data_copy;
pub mod data_copy_test;
pub mod dependence;
pub mod dialect;
pub mod expand_strided_metadata;
pub mod footprint;
mod for_fold;
pub mod for_op;
pub mod fusion;
mod index_ops;
pub mod licm;
mod load_fold;
pub mod loop_min_max;
pub mod loop_tiling;
pub mod loops;
pub mod lower;
mod min_max;
pub mod normalize;
pub mod parallel;
pub mod parallelize;
pub mod parametric_tile;
pub mod permute;
pub mod pipeline_data_transfer;
pub mod presburger;
pub mod raise_memref;
pub mod region;
mod reshape_folders;
pub mod scalrep;
pub mod scope;
pub mod simplify_structures;
pub mod skew;
mod strided_metadata_folders;
#[cfg(test)]
mod test_support;
pub mod tile;
pub mod tile_validity;
pub mod unroll_passes;
pub mod value_map;
mod verify;

pub use dialect::AFFINE;
