//! Circuit-level dialects in CIRCT's syntax: `hw` (modules, instances,
//! constants, wires, aggregate types), `comb` (combinational operators on
//! bit vectors of any width) and `seq` (registers and clocks).

pub mod aggregate_folds;
pub mod aggregate_to_comb;
pub mod aggregates;
pub mod comb;
pub mod enums;
pub mod eval;
pub mod fold;
pub mod hierpath;
pub mod hw;
pub mod initial;
pub mod inner_sym;
pub mod inner_sym_passes;
pub mod instance_graph;
pub mod lower_compreg_ce;
pub mod lower_shiftreg;
pub mod mem_init;
pub mod memory;
pub mod params;
pub mod reg_of_vec_to_mem;
pub mod seq;
pub mod seq_canonicalize;
pub mod seq_memory;
pub mod sim;
pub mod sim_memory;
pub mod sim_order;
pub mod specialize;
pub mod typedecl;
pub mod types;
pub mod unions;

pub use comb::COMB;
pub use hw::HW;
pub use seq::SEQ;

/// Registers the hw, comb and seq dialects in `ctx`.
pub fn register(ctx: &mut silica_ir::Context) {
    ctx.register_dialect(&HW);
    ctx.register_dialect(&COMB);
    ctx.register_dialect(&SEQ);
}
