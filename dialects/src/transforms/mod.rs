//! Passes over the software dialects that are no one dialect's
//! canonicalization: `inline` ([`inline`]), `remove-dead-values`
//! ([`remove_dead_values`]), `promote-buffers-to-stack`
//! ([`promote_buffers`]), `convert-scf-to-cf` with the `scf.forall`
//! lowerings ([`scf_to_cf`]), and `scf-parallel-loop-tiling`
//! ([`parallel_loop_tiling`]).

pub mod inline;
pub mod parallel_loop_tiling;
pub mod promote_buffers;
pub mod remove_dead_values;
pub mod scf_to_cf;
