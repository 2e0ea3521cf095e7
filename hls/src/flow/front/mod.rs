//! The front end: finds the top function, checks its signature against
//! the hardware contract (static-shape identity-layout memrefs, integer,
//! `index`, `f32` and `f64` scalars) and lifts its body into the [`Kernel`] model,
//! rejecting every operation the flow does not support with a diagnostic
//! at that operation. Directives act here: `unroll.rs` unrolls loops of
//! (a copy of) the input before lifting, `reuse.rs` removes redundant
//! loads and stores (of every loop, the unrolled copies included), `hoist.rs` moves a loop's invariant code before
//! it, `carry.rs` passes loaded elements from one iteration of an
//! innermost loop to the next, `partition.rs` splits on-chip
//! arrays into banks while lifting, `fuse.rs` fuses the sibling loops
//! of a loop to be flattened (shifted as the dependences require) so
//! that its nest is perfect, `flatten.rs` folds perfect nests of
//! the lifted kernel into one pipelined loop, `memories.rs` sets ports,
//! `dataflow.rs` groups the body's loop nests into concurrent tasks.
//! `ip.rs` reads declarations bound to hand-written Verilog (`hls.ip`).
//! `promote.rs` holds an element a loop reads and writes at an address
//! invariant in it in a register across the loop.
//! `constant_division.rs` lifts divisions by constants as shifts and reciprocal multiplications.
//! `widen.rs` makes the accesses of packed memories (`width`) word
//! accesses, those of one word in a block combined.
//! `buffer.rs` copies external memories into on-chip RAMs (`buffer`)
//! before the other transforms, with copy loops of a word an iteration;
//! `scale_copy.rs` moves the body's products of a buffered memory by one
//! scalar into its copy in.
//! `uninit.rs` warns at loads of a local buffer before anything writes it;
//! `bounds.rs` rejects affine accesses proven out of bounds.
//! `directives.rs` resolves the directives file and attributes to the
//! loops and arrays `names.rs` names. `passes.rs` runs the transforms of
//! the IR in order, and registers each as a `silica opt` pass.

mod arith_extra;
mod bounds;
mod buffer;
mod call;
mod carry;
mod constant_division;
mod dataflow;
pub mod directives;
mod dma;
mod expr;
mod flatten;
mod float;
mod fuse;
mod hoist;
mod index_elements;
pub mod inline;
mod interchange;
pub mod ip;
mod lift;
mod line_buffer;
mod memories;
pub mod names;
mod partition;
pub mod passes;
mod promote;
mod returned;
mod reuse;
mod rom;
mod scale_copy;
mod scf_unroll;
mod signature;
mod state_machine;
mod structure;
mod uninit;
mod unroll;
mod while_loop;
mod while_to_for;
mod widen;

use silica_ir::dialect::inherent_attr;
use silica_ir::{Context, Diagnostic, Ir, OpId};

pub use bounds::{data_dependent_accesses, out_of_bounds};
pub use buffer::{buffer, buffer_name, is_copy_loop};
pub use call::{call_order, function_name};
pub use carry::carry;
pub use constant_division::{reciprocal, MAX_RECIPROCAL_WIDTH};
pub use dataflow::dataflow;
pub use dma::buffer_names;
pub use flatten::{flatten, flattens};
pub use fuse::fuse;
pub use hoist::hoist;
pub use lift::lift_function;
pub use line_buffer::line_buffer;
pub use memories::{memories, PortLimits};
pub use promote::promote;
pub use returned::returned_buffers_to_arguments;
pub use reuse::reuse;
pub use signature::{arg_name, op_name_attr, string_of};
pub use structure::structure;
pub use uninit::uninitialised_reads;
pub use unroll::{jam_breaks, unroll};
pub use while_to_for::while_to_for;
pub use widen::widen;

/// The `func.func` named `top` in `module`, or an error at the module.
pub fn find_top(ctx: &Context, ir: &Ir, module: OpId, top: &str) -> Result<OpId, Box<Diagnostic>> {
    let mut found = None;
    for region in ir.regions(module) {
        for block in ir.region_blocks(region) {
            for op in ir.block_ops(block) {
                if ctx.str(ir.op_name(op)) == "func.func"
                    && signature::string_of(ctx, inherent_attr(ctx, ir, op, "sym_name")).as_deref()
                        == Some(top)
                {
                    found = Some(op);
                }
            }
        }
    }
    let found = found.ok_or_else(|| {
        let funcs: Vec<OpId> = ir
            .regions(module)
            .flat_map(|r| ir.region_blocks(r).collect::<Vec<_>>())
            .flat_map(|b| ir.block_ops(b).collect::<Vec<_>>())
            .filter(|&op| ctx.str(ir.op_name(op)) == "func.func")
            .collect();
        let names: Vec<String> = funcs
            .iter()
            .filter_map(|&op| signature::string_of(ctx, inherent_attr(ctx, ir, op, "sym_name")))
            .collect();
        let functions = if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        };
        // At the first function: the module's own location points nowhere.
        let at = funcs.first().map_or(ir.op_loc(module), |&f| ir.op_loc(f));
        Box::new(Diagnostic::error(
            at,
            format!("no function named '{top}' to synthesize (--top; functions: {functions})"),
        ))
    })?;
    if !silica_emit_verilog::is_legal_module_name(top) {
        return Err(Box::new(Diagnostic::error(
            ir.op_loc(found),
            format!(
                "the top function's name '{top}' cannot name the Verilog module (a SystemVerilog keyword or not an identifier); rename the function"
            ),
        )));
    }
    Ok(found)
}
