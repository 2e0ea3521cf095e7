//! Software-level dialects on `silica-ir`'s declarative op definitions:
//! `arith`, `func`, `cf`, `math`, `index`, `scf`, `memref` (in part) and
//! `ub`, one module each (a folder where the dialect spans several files:
//! its ops in `mod.rs`, its folds, patterns and verifiers beside them);
//! [`build`] and `region_branch_patterns`, which several dialects'
//! rewrites share; and in [`transforms`] the passes over several dialects
//! (inlining, dead-value removal, buffer promotion, `scf` to `cf`).

pub mod arith;
pub mod build;
pub mod cf;
pub mod func;
pub mod index;
pub mod math;
pub mod memref;
mod region_branch_patterns;
pub mod scf;
pub mod transforms;
pub mod ub;
