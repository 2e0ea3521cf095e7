//! `loop-invariant-code-motion`: in every loop (innermost first), ops of
//! the loop body that have no memory effects, cannot trap and use only
//! values from outside the loop move just before the loop; their users
//! in the body are reconsidered, as MLIR's `moveLoopInvariantCode` does.

use crate::context::Context;
use crate::diag::Diagnostic;
use crate::dialect::Traits;
use crate::graph::{Ir, OpId, RegionId, ValueId};
use crate::pass::{Pass, PassInfo, PassOptions};
use crate::rewrite::effects::is_memory_effect_free;
use crate::rewrite::fold::constant_int;
use crate::{AttrKind, BigInt};
use std::collections::VecDeque;

fn traits(ctx: &Context, ir: &Ir, op: OpId) -> Traits {
    ctx.op_def(ir.op_name(op))
        .map_or(Traits::NONE, |d| d.traits)
}

/// Whether `v` is defined outside `loop_op` (block arguments of the
/// loop's own regions, like the induction variable, are inside).
fn defined_outside(ir: &Ir, v: ValueId, loop_op: OpId) -> bool {
    let owner = ir
        .value_block(v)
        .and_then(|b| ir.block_region(b))
        .and_then(|r| ir.region_op(r));
    owner.is_none_or(|o| !ir.is_ancestor(loop_op, o))
}

/// Whether `op` and the ops nested in it use only values defined
/// outside `loop_op` or inside `candidate` itself.
fn uses_only_outside(ir: &Ir, op: OpId, candidate: OpId, loop_op: OpId) -> bool {
    let operands_ok = ir.operands(op).all(|v| {
        defined_outside(ir, v, loop_op)
            || ir
                .value_block(v)
                .and_then(|b| ir.block_region(b))
                .and_then(|r| ir.region_op(r))
                .is_some_and(|o| ir.is_ancestor(candidate, o))
    });
    operands_ok
        && ir.regions(op).all(|r| {
            ir.region_blocks(r).all(|b| {
                ir.block_ops(b)
                    .all(|o| uses_only_outside(ir, o, candidate, loop_op))
            })
        })
}

/// Loops are speculatable (known to terminate) only with a step of 1.
fn loop_step_is_one(ctx: &mut Context, ir: &mut Ir, op: OpId, name: &str) -> bool {
    match name {
        "scf.for" => {
            let step = ir.operand(op, 2);
            constant_int(ctx, ir, step) == Some(BigInt::from(1))
        }
        "affine.for" => crate::dialect::inherent_attr(ctx, ir, op, "step").is_some_and(|a| {
            matches!(ctx.attr_kind(a), AttrKind::Integer { value, .. } if *value == BigInt::from(1))
        }),
        _ => true,
    }
}

/// `memref.dim` cannot trap when its source is ranked and its index a
/// constant within the rank.
fn dim_in_range(ctx: &mut Context, ir: &mut Ir, op: OpId) -> bool {
    let source_ty = ir.value_type(ir.operand(op, 0));
    let rank = match ctx.type_kind(source_ty) {
        crate::TypeKind::MemRef { shape, .. } => shape.len(),
        _ => return false,
    };
    let index = ir.operand(op, 1);
    constant_int(ctx, ir, index).is_some_and(|i| i >= BigInt::from(0) && i < BigInt::from(rank))
}

/// Ops with regions that may run speculatively when everything in their
/// regions may (MLIR's `RecursivelySpeculatable`).
const RECURSIVELY_SPECULATABLE: &[&str] = &["affine.for", "affine.if", "scf.if", "scf.for"];

/// Division and remainder trap on a zero divisor (and overflow on -1);
/// region ops are speculatable when their nested ops are.
fn speculatable(ctx: &mut Context, ir: &mut Ir, op: OpId) -> bool {
    if ir.num_regions(op) > 0 {
        let name = ctx.str(ir.op_name(op)).to_string();
        if !RECURSIVELY_SPECULATABLE.contains(&name.as_str()) {
            return false;
        }
        if !loop_step_is_one(ctx, ir, op, &name) {
            return false;
        }
        let mut nested = Vec::new();
        for r in ir.regions(op).collect::<Vec<_>>() {
            for b in ir.region_blocks(r).collect::<Vec<_>>() {
                nested.extend(ir.block_ops(b));
            }
        }
        return nested.into_iter().all(|o| speculatable(ctx, ir, o));
    }
    if ctx.str(ir.op_name(op)) == "memref.dim" {
        return dim_in_range(ctx, ir, op);
    }
    if !traits(ctx, ir, op).has(Traits::DIVISION) {
        return true;
    }
    let divisor = ir.operand(op, 1);
    match constant_int(ctx, ir, divisor) {
        Some(value) => {
            let signed = ctx.str(ir.op_name(op)).contains('s');
            value != BigInt::from(0) && !(signed && value == BigInt::from(-1))
        }
        None => false,
    }
}

fn hoist_from(ctx: &mut Context, ir: &mut Ir, loop_op: OpId, region: RegionId) -> usize {
    let mut worklist: VecDeque<OpId> = ir
        .region_blocks(region)
        .flat_map(|b| ir.block_ops(b))
        .collect();
    let mut moved = 0;
    while let Some(op) = worklist.pop_front() {
        if ir.is_erased(op) || ir.op_block(op).and_then(|b| ir.block_region(b)) != Some(region) {
            continue;
        }
        if traits(ctx, ir, op).has(Traits::TERMINATOR)
            || !is_memory_effect_free(ctx, ir, op)
            || !speculatable(ctx, ir, op)
            || !uses_only_outside(ir, op, op, loop_op)
        {
            continue;
        }
        ir.move_op_before(op, loop_op);
        moved += 1;
        for r in ir.results(op).collect::<Vec<_>>() {
            for u in ir.uses(r) {
                let user = ir.use_owner(u);
                if ir.op_block(user).and_then(|b| ir.block_region(b)) == Some(region) {
                    worklist.push_back(user);
                }
            }
        }
    }
    moved
}

/// Hoists loop-invariant code out of every loop under `root`; returns
/// how many ops moved.
pub fn hoist_loop_invariants(ctx: &mut Context, ir: &mut Ir, root: OpId) -> usize {
    let mut loops = Vec::new();
    collect_loops(ctx, ir, root, &mut loops);
    let mut moved = 0;
    for l in loops {
        for r in ir.regions(l).collect::<Vec<_>>() {
            moved += hoist_from(ctx, ir, l, r);
        }
    }
    moved
}

/// Loops in post-order (inner loops before the loops around them).
fn collect_loops(ctx: &Context, ir: &Ir, op: OpId, out: &mut Vec<OpId>) {
    for r in ir.regions(op) {
        for b in ir.region_blocks(r) {
            for o in ir.block_ops(b) {
                collect_loops(ctx, ir, o, out);
            }
        }
    }
    if traits(ctx, ir, op).has(Traits::LOOP_LIKE) {
        out.push(op);
    }
}

struct Licm;

impl Pass for Licm {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        hoist_loop_invariants(ctx, ir, op);
        Ok(())
    }
}

fn create(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(Licm))
}

/// The `loop-invariant-code-motion` pass.
pub static LICM: PassInfo = PassInfo {
    argument: "loop-invariant-code-motion",
    name: "LoopInvariantCodeMotion",
    description: "Hoist loop invariant instructions outside of the loop",
    anchor: None,
    options: &[],
    create,
};
