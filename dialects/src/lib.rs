//! Software-level dialects on `silica-ir`'s declarative op definitions:
//! `arith`, `func`, `cf`, `math`, `index`, `scf` and `memref` (in part).

pub mod arith;
pub mod build;
pub mod cf;
mod cf_patterns;
pub mod func;
pub mod index;
mod index_fold;
pub mod inline;
pub mod math;
pub mod memref;
pub mod memref_atomic;
mod memref_fold;
pub mod memref_layout;
pub mod memref_metadata;
mod memref_patterns;
mod memref_reshape_patterns;
mod memref_scope;
pub mod memref_transpose;
pub mod memref_verify;
pub mod promote_buffers;
mod region_branch_patterns;
pub mod remove_dead_values;
pub mod scf;
mod scf_forall;
mod scf_parallel_patterns;
mod scf_patterns;
pub use scf_patterns::if_empty_else;
mod scf_region_branch;
pub mod scf_to_cf;
mod scf_verify;
pub mod ub;
