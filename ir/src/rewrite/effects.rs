//! Memory-effect queries: whether an op may be erased when unused
//! (MLIR's `wouldOpBeTriviallyDead`) and whether it touches memory at all
//! (`isMemoryEffectFree`), from the [`Effects`] of op definitions.

use crate::context::Context;
use crate::dialect::{op_effects as effects, Effects, Traits};
use crate::graph::{Ir, OpId};

fn nested_ops(ir: &Ir, op: OpId) -> impl Iterator<Item = OpId> + '_ {
    ir.regions(op)
        .flat_map(move |r| ir.region_blocks(r))
        .flat_map(move |b| ir.block_ops(b))
}

/// Whether `op` has no results in use and could be erased.
pub fn is_trivially_dead(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ir.results(op).all(|v| !ir.has_uses(v)) && would_be_trivially_dead(ctx, ir, op)
}

/// Whether `op` could be erased if its results were unused: it is not a
/// terminator or symbol, and it and its nested ops only read memory or
/// allocate their own results.
pub fn would_be_trivially_dead(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    let Some(def) = ctx.op_def(ir.op_name(op)) else {
        return false;
    };
    if def.traits.has(Traits::TERMINATOR) || is_symbol(ctx, ir, op) {
        return false;
    }
    effect_free_or_reading(ctx, ir, op)
}

fn effect_free_or_reading(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    match effects(ctx, ir, op) {
        Effects::None | Effects::Read | Effects::Alloc => true,
        Effects::Write | Effects::Unknown | Effects::Dynamic(_) => false,
        Effects::Recursive => nested_ops(ir, op).all(|o| effect_free_or_reading(ctx, ir, o)),
    }
}

/// Whether `op` and its nested ops have no memory effects.
pub fn is_memory_effect_free(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    match effects(ctx, ir, op) {
        Effects::None => true,
        Effects::Recursive => nested_ops(ir, op).all(|o| is_memory_effect_free(ctx, ir, o)),
        _ => false,
    }
}

/// Whether `op` only reads memory (no writes, allocations or unknowns).
pub fn only_reads(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    match effects(ctx, ir, op) {
        Effects::None | Effects::Read => true,
        Effects::Recursive => nested_ops(ir, op).all(|o| only_reads(ctx, ir, o)),
        _ => false,
    }
}

/// Whether `op` defines a symbol (a `sym_name` inherent attribute).
pub fn is_symbol(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_def(ir.op_name(op))
        .is_some_and(|d| d.inherent_attrs.contains(&"sym_name"))
}
