//! The multiplexers at register inputs that the tools turn into the
//! flip-flops' clock enables and synchronous resets (yosys's `opt_dff`):
//! every one with an arm that holds the register's value, then, from the
//! top of what is left down, those with an arm of one same constant
//! (where the register has no reset of its own). Only multiplexers used once, on the way to the
//! register, count.

use rustc_hash::FxHashSet;
use silica_ir::{BlockId, Context, Ir, OpId, ValueId};

/// The multiplexers of `block` that become flip-flop enables and resets.
pub fn absorbed(ctx: &Context, ir: &Ir, block: BlockId) -> FxHashSet<OpId> {
    let mut free = FxHashSet::default();
    for op in ir.block_ops(block) {
        if ctx.str(ir.op_name(op)) != "seq.compreg" {
            continue;
        }
        let q = ir.result(op, 0);
        let mut top = strip(ctx, ir, ir.operand(op, 0), q, &mut free);
        if ir.num_operands(op) > 2 {
            continue;
        }
        // Multiplexers down from the top that load one same constant
        // reset the register together (`opt_dff` absorbs them one after
        // the other).
        let mut reset: Option<silica_ir::Attr> = None;
        while let Some(m) = single_mux(ctx, ir, top) {
            let a = strip(ctx, ir, ir.operand(m, 1), q, &mut free);
            let b = strip(ctx, ir, ir.operand(m, 2), q, &mut free);
            let (value, rest) = match (constant(ctx, ir, a), constant(ctx, ir, b)) {
                (Some(k), _) => (k, b),
                (None, Some(k)) => (k, a),
                (None, None) => break,
            };
            if reset.is_some_and(|r| r != value) {
                break;
            }
            reset = Some(value);
            free.insert(m);
            top = rest;
        }
    }
    free
}

/// The value of the `hw.constant` defining `v`.
fn constant(ctx: &Context, ir: &Ir, v: ValueId) -> Option<silica_ir::Attr> {
    let op = ir.defining_op(v)?;
    if ctx.str(ir.op_name(op)) != "hw.constant" {
        return None;
    }
    silica_ir::dialect::inherent_attr(ctx, ir, op, "value")
}

/// The multiplexer defining `v` when `v` has no other use.
fn single_mux(ctx: &Context, ir: &Ir, v: ValueId) -> Option<OpId> {
    let op = ir.defining_op(v)?;
    (ctx.str(ir.op_name(op)) == "comb.mux" && ir.uses(v).count() == 1).then_some(op)
}

/// `v` with the multiplexer arms holding `q` taken out, and the
/// multiplexers left with equal arms (those multiplexers recorded in
/// `free`): what the register loads when enabled.
fn strip(ctx: &Context, ir: &Ir, v: ValueId, q: ValueId, free: &mut FxHashSet<OpId>) -> ValueId {
    if v == q {
        return q;
    }
    let Some(op) = single_mux(ctx, ir, v) else {
        return v;
    };
    let a = strip(ctx, ir, ir.operand(op, 1), q, free);
    let b = strip(ctx, ir, ir.operand(op, 2), q, free);
    if a == q || a == b || constant(ctx, ir, a).is_some_and(|k| constant(ctx, ir, b) == Some(k)) {
        free.insert(op);
        b
    } else if b == q {
        free.insert(op);
        a
    } else {
        v
    }
}
