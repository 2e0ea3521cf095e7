//! Circuit-level dialects in CIRCT's syntax: `hw` (modules, instances,
//! constants, wires, aggregate types), `comb` (combinational operators on
//! bit vectors of any width) and `seq` (registers, clocks and memories),
//! one folder each (the dialect's ops in `mod.rs`, its attributes, folds
//! and canonicalizations beside them), with the types of hw and seq
//! ([`types`]) and the bit-exact meaning of their values and ops
//! ([`eval`]) shared by all three. [`sim`] is the cycle simulator of
//! `silica sim`, and [`transforms`] holds the circuit passes.

pub mod comb;
pub mod eval;
pub mod hw;
pub mod seq;
pub mod sim;
pub mod transforms;
pub mod types;

pub use comb::COMB;
pub use hw::HW;
pub use seq::SEQ;

/// Registers the hw, comb and seq dialects in `ctx`.
pub fn register(ctx: &mut silica_ir::Context) {
    ctx.register_dialect(&HW);
    ctx.register_dialect(&COMB);
    ctx.register_dialect(&SEQ);
}
