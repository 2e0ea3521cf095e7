//! Reductions carried by a loop's iteration arguments: an argument used
//! once, by a side-effect-free binary `arith` op in the loop body whose
//! other operand is not an iteration argument and whose one
//! result is yielded at the argument's position. MLIR's `matchReduction`
//! with the combiners `getSupportedReductions` accepts, and the ops that
//! combine two partial results of each kind.

use super::build::{iter_args, terminator};
use crate::for_op::body;
use silica_ir::{Context, Ir, OpId};

/// The `arith` ops that combine a reduction, as MLIR's supported kinds.
const COMBINERS: &[&str] = &[
    "arith.addf",
    "arith.mulf",
    "arith.addi",
    "arith.andi",
    "arith.ori",
    "arith.muli",
    "arith.minimumf",
    "arith.maximumf",
    "arith.minsi",
    "arith.maxsi",
    "arith.minui",
    "arith.maxui",
    "arith.xori",
    "arith.maxnumf",
    "arith.minnumf",
];

/// A reduction: the iteration argument's position and its combiner op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopReduction {
    pub position: usize,
    pub combiner: &'static str,
}

fn match_reduction(ctx: &Context, ir: &Ir, op: OpId, position: usize) -> Option<&'static str> {
    let args = iter_args(ir, op);
    let arg = *args.get(position)?;
    let mut uses = ir.uses(arg);
    let only = uses.next()?;
    if uses.next().is_some() {
        return None;
    }
    let combiner = ir.use_owner(only);
    if ir.num_operands(combiner) != 2 {
        return None;
    }
    let reduced = if ir.operand(combiner, 0) == arg {
        ir.operand(combiner, 1)
    } else {
        ir.operand(combiner, 0)
    };
    // MLIR's check walks the backward slice of the reduced value outside
    // the loop only, so what it rejects is an iteration argument itself.
    if args.contains(&reduced) {
        return None;
    }
    let name = ctx.str(ir.op_name(combiner));
    let kind = COMBINERS.iter().copied().find(|&c| c == name)?;
    let block = body(ir, op)?;
    if ir.op_block(combiner) != Some(block) || ir.num_results(combiner) != 1 {
        return None;
    }
    let result = ir.result(combiner, 0);
    let mut result_uses = ir.uses(result);
    let user = ir.use_owner(result_uses.next()?);
    if result_uses.next().is_some() || Some(user) != terminator(ir, op) {
        return None;
    }
    (ir.operands(user).nth(position) == Some(result)).then_some(kind)
}

/// The iteration arguments of `op` that carry a supported reduction.
pub fn supported_reductions(ctx: &Context, ir: &Ir, op: OpId) -> Vec<LoopReduction> {
    (0..iter_args(ir, op).len())
        .filter_map(|position| {
            match_reduction(ctx, ir, op, position)
                .map(|combiner| LoopReduction { position, combiner })
        })
        .collect()
}
