//! `--interface axi`: the core of the brief's `memory` interface wrapped
//! for a host, as hw/comb/seq IR beside the core. The wrapper `F_axi`
//! (`wrapper`) holds the core, an AXI4-Lite slave with the `ap_ctrl`
//! register map (`model::register_map`, `lite`), and a copy engine with an AXI4
//! master that fills on-chip RAMs from host memory before the core runs
//! and writes them back after (`engine`); memrefs that the core's DMA
//! engines alone move stay in host memory, and the master moves their
//! tiles as bursts while the core runs (`streams`). The register map goes into
//! `F.json` (`axi`) and into a C header `F.h` (`header`);
//! `verification::cosim::axi_testbench` co-simulates the wrapped design.

mod engine;
pub mod header;
mod lite;
pub mod ports;
mod streams;
mod wrapper;

use crate::model::register_map::RegisterMap;

use crate::model::interface::Interface;
use silica_ir::{Attr, Context, Ir, OpId};

/// Appends the wrapper module of `iface` to the `builtin.module`
/// `module` of `ir`, which holds the core; gives the IR back.
pub fn wrap(
    ctx: &mut Context,
    ir: Ir,
    module: OpId,
    iface: &Interface,
    map: &RegisterMap,
    loc: Attr,
) -> Ir {
    let block = ir
        .regions(module)
        .next()
        .and_then(|r| ir.entry_block(r))
        .expect("a builtin.module has a body");
    wrapper::build(ctx, ir, block, iface, map, loc)
}
