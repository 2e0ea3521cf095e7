//! Promotion of a loop that runs exactly once: its body replaces it, the
//! induction variable becomes the lower bound (an index constant at the
//! top of the enclosing function, the bound operand itself, or an
//! `affine.apply` of the bound map), the iteration arguments their initial
//! values and the loop's results the values its body yields. MLIR's
//! `promoteIfSingleIteration`.

use super::build::{
    create_apply, create_index_constant, inits, iter_args, lower_bound, terminator,
};
use super::trip_count::{constant_trip_count, upper_bound_on_trip_count};
use crate::for_op::{body, induction_var};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::{Context, Ir, OpId};

/// The function `op` is nested in, if any.
fn enclosing_function(ctx: &Context, ir: &Ir, op: OpId) -> Option<OpId> {
    let mut cur = ir.parent_op(op);
    while let Some(p) = cur {
        if matches!(ctx.str(ir.op_name(p)), "func.func" | "llvm.func") {
            return Some(p);
        }
        cur = ir.parent_op(p);
    }
    None
}

/// Promotes the body of `op` into the block around it when the loop runs
/// exactly once; returns whether it did (the loop is then erased).
pub fn promote_if_single_iteration(ctx: &mut Context, ir: &mut Ir, op: OpId) -> bool {
    if constant_trip_count(ctx, ir, op) != Some(1)
        || upper_bound_on_trip_count(ctx, ir, op) != Some(1)
    {
        return false;
    }
    let Some(lower) = lower_bound(ctx, ir, op) else {
        return false;
    };
    if lower.map.results.len() != 1 {
        return false;
    }
    let (Some(block), Some(iv), Some(yield_op)) =
        (body(ir, op), induction_var(ir, op), terminator(ir, op))
    else {
        return false;
    };
    let loc = ir.op_loc(op);
    if ir.has_uses(iv) {
        let value = if let Some(c) = lower.as_constant() {
            let constant = create_index_constant(ctx, ir, c, loc);
            let entry = enclosing_function(ctx, ir, op)
                .and_then(|f| ir.regions(f).next())
                .and_then(|r| ir.entry_block(r));
            match entry.and_then(|b| ir.first_op(b)) {
                Some(first) => ir.insert_op_before(first, constant),
                None => match entry {
                    Some(b) => ir.append_op(b, constant),
                    None => ir.insert_op_before(op, constant),
                },
            }
            ir.result(constant, 0)
        } else if lower.map
            == (AffineMap {
                num_dims: 1,
                num_symbols: 0,
                results: Box::new([AffineExpr::Dim(0)]),
            })
        {
            lower.operands[0]
        } else {
            let apply = create_apply(ctx, ir, lower.map.clone(), &lower.operands, loc);
            ir.insert_op_before(op, apply);
            ir.result(apply, 0)
        };
        ir.replace_all_uses(iv, value);
    }
    for (arg, init) in iter_args(ir, op).into_iter().zip(inits(ctx, ir, op)) {
        ir.replace_all_uses(arg, init);
    }
    let yielded: Vec<_> = ir.operands(yield_op).collect();
    let results: Vec<_> = ir.results(op).collect();
    for (r, y) in results.into_iter().zip(yielded) {
        ir.replace_all_uses(r, y);
    }
    ir.erase_op(yield_op);
    let ops: Vec<OpId> = ir.block_ops(block).collect();
    for o in ops {
        ir.move_op_before(o, op);
    }
    ir.erase_op(op);
    true
}
