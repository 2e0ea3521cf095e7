//! Equality saturation (`egg`) on integer dataflow: runs of consecutive
//! `arith` integer ops of one type in a block become an e-graph (values
//! from before the run are leaves), [`rules`] (algebraic identities,
//! strength reduction, reassociation, constant folding through the
//! analysis) saturate it, an extractor picks the cheapest equivalent
//! expressions under a [`cost`] model, and [`pass`] writes them back when
//! they are cheaper than what was there.

pub mod cost;
pub mod ilp;
pub mod lang;
pub mod pass;
pub mod rules;

pub use pass::{EqsatOptions, EQSAT};
