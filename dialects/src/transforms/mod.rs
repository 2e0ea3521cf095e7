//! Passes over the software dialects that are no one dialect's
//! canonicalization: `inline` ([`inline`]), `remove-dead-values`
//! ([`remove_dead_values`]), `promote-buffers-to-stack`
//! ([`promote_buffers`]), and `convert-scf-to-cf` with the `scf.forall`
//! lowerings ([`scf_to_cf`]).

pub mod inline;
pub mod promote_buffers;
pub mod remove_dead_values;
pub mod scf_to_cf;
