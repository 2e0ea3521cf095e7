//! Region simplification between greedy sweeps (MLIR's
//! `simplifyRegions`): unreachable blocks are erased, then a liveness
//! fixpoint erases ops whose results nobody live needs and the arguments
//! of non-entry blocks that no live op uses (with the branch operands
//! that fed them); the aggressive level also drops the block arguments
//! that every predecessor passes the same value (MLIR's
//! `dropRedundantArguments`; identical blocks are not merged).

use super::effects::would_be_trivially_dead;
use super::Rewriter;
use crate::context::Context;
use crate::dialect::Traits;
use crate::graph::{BlockId, Ir, OpId, RegionId, ValueId};
use rustc_hash::FxHashSet;

/// Simplifies `regions` and the regions nested in them (`aggressive`:
/// redundant block arguments dropped too); returns whether anything
/// changed.
pub fn simplify_regions(rw: &mut Rewriter<'_>, regions: &[RegionId], aggressive: bool) -> bool {
    let blocks = erase_unreachable_blocks(rw, regions);
    let dead = run_region_dce(rw, regions);
    let dropped = aggressive && drop_redundant_arguments(rw, regions);
    blocks || dead || dropped
}

/// Drops, in `regions` and the regions nested in them, each block
/// argument that every predecessor (all branches) passes the same value,
/// using that value instead.
fn drop_redundant_arguments(rw: &mut Rewriter<'_>, regions: &[RegionId]) -> bool {
    let mut worklist: Vec<RegionId> = regions.to_vec();
    let mut changed = false;
    while let Some(region) = worklist.pop() {
        for block in rw.ir.region_blocks(region).collect::<Vec<_>>() {
            changed |= drop_block_arguments(rw, region, block);
            for op in rw.ir.block_ops(block).collect::<Vec<_>>() {
                worklist.extend(rw.ir.regions(op));
            }
        }
    }
    changed
}

fn drop_block_arguments(rw: &mut Rewriter<'_>, region: RegionId, block: BlockId) -> bool {
    let mut preds: Vec<(OpId, usize)> = Vec::new();
    for b in rw.ir.region_blocks(region) {
        if let Some(t) = rw.ir.last_op(b) {
            for (s, &succ) in rw.ir.successors(t).iter().enumerate() {
                if succ == block {
                    preds.push((t, s));
                }
            }
        }
    }
    let Some(branches) = preds
        .iter()
        .map(|&(t, s)| {
            let branch = rw.ctx.op_def(rw.ir.op_name(t))?.branch?;
            Some((
                t,
                s,
                branch,
                (branch.successor_operands)(rw.ctx, rw.ir, t, s),
            ))
        })
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    if branches.is_empty() {
        return false;
    }
    let args = rw.ir.block_args(block).to_vec();
    let mut dropped = Vec::new();
    for (i, &arg) in args.iter().enumerate() {
        let passed: Vec<ValueId> = branches
            .iter()
            .map(|(t, _, _, range)| rw.ir.operand(*t, range.start + i))
            .collect();
        if passed.iter().all(|&v| v == passed[0]) {
            rw.replace_all_uses(arg, passed[0]);
            dropped.push(i);
        }
    }
    for &i in dropped.iter().rev() {
        rw.ir.erase_block_arg(block, i);
        for &(t, s, branch, _) in &branches {
            (branch.erase_successor_operand)(rw.ctx, rw.ir, t, s, i);
            rw.modified(t);
        }
    }
    !dropped.is_empty()
}

fn successors(ir: &Ir, block: BlockId) -> Vec<BlockId> {
    ir.last_op(block)
        .map(|t| ir.successors(t).to_vec())
        .unwrap_or_default()
}

/// Blocks of `region` in post-order from its entry (successors first).
fn post_order(ir: &Ir, region: RegionId) -> Vec<BlockId> {
    let Some(entry) = ir.entry_block(region) else {
        return Vec::new();
    };
    let mut seen = FxHashSet::default();
    let mut order = Vec::new();
    let mut stack = vec![(entry, successors(ir, entry), 0usize)];
    seen.insert(entry);
    while let Some((block, succs, i)) = stack.last_mut() {
        if let Some(&next) = succs.get(*i) {
            *i += 1;
            if seen.insert(next) {
                let s = successors(ir, next);
                stack.push((next, s, 0));
            }
        } else {
            order.push(*block);
            stack.pop();
        }
    }
    order
}

/// Erases the blocks of `regions` (and of the regions nested in them)
/// that their entry does not reach; gives whether it erased any.
pub fn erase_unreachable_blocks(rw: &mut Rewriter<'_>, regions: &[RegionId]) -> bool {
    let mut erased = false;
    let mut worklist: Vec<RegionId> = regions.to_vec();
    while let Some(region) = worklist.pop() {
        let blocks: Vec<BlockId> = rw.ir.region_blocks(region).collect();
        if blocks.len() > 1 {
            let reachable: FxHashSet<BlockId> = post_order(rw.ir, region).into_iter().collect();
            for &b in &blocks {
                if !reachable.contains(&b) {
                    rw.erase_block(b);
                    erased = true;
                }
            }
        }
        for b in rw.ir.region_blocks(region).collect::<Vec<_>>() {
            for op in rw.ir.block_ops(b) {
                worklist.extend(rw.ir.regions(op));
            }
        }
    }
    erased
}

/// What the liveness fixpoint has proved live.
#[derive(Default)]
struct Live {
    ops: FxHashSet<OpId>,
    values: FxHashSet<ValueId>,
    changed: bool,
}

impl Live {
    fn op(&mut self, op: OpId) {
        self.changed |= self.ops.insert(op);
    }
    fn value(&mut self, v: ValueId) {
        self.changed |= self.values.insert(v);
    }
}

fn run_region_dce(rw: &mut Rewriter<'_>, regions: &[RegionId]) -> bool {
    let mut live = Live::default();
    loop {
        live.changed = false;
        for &r in regions {
            propagate_region(rw.ctx, rw.ir, r, &mut live);
        }
        if !live.changed {
            break;
        }
    }
    delete_dead(rw, regions, &live)
}

/// The successor argument fed by operand `index` of the terminator `op`,
/// if `op` is a branch that says so.
fn successor_arg(ctx: &Context, ir: &Ir, op: OpId, index: usize) -> Option<ValueId> {
    let branch = ctx.op_def(ir.op_name(op))?.branch?;
    for (s, &succ) in ir.successors(op).iter().enumerate() {
        let range = (branch.successor_operands)(ctx, ir, op, s);
        if range.contains(&index) {
            return ir.block_args(succ).get(index - range.start).copied();
        }
    }
    None
}

fn is_terminator(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_def(ir.op_name(op))
        .is_some_and(|d| d.traits.has(Traits::TERMINATOR))
}

fn process_value(ctx: &Context, ir: &Ir, v: ValueId, live: &mut Live) {
    let proved = ir.uses(v).any(|u| {
        let owner = ir.use_owner(u);
        if is_terminator(ctx, ir, owner) {
            let index = ir.operand_uses(owner).position(|x| x == u).unwrap_or(0);
            if let Some(arg) = successor_arg(ctx, ir, owner, index) {
                if !live.values.contains(&arg) {
                    return false;
                }
            }
        }
        live.ops.contains(&owner)
    });
    if proved {
        live.value(v);
    }
}

fn propagate_region(ctx: &Context, ir: &Ir, region: RegionId, live: &mut Live) {
    let entry = ir.entry_block(region);
    for block in post_order(ir, region) {
        let ops: Vec<OpId> = ir.block_ops(block).collect();
        for &op in ops.iter().rev() {
            propagate_op(ctx, ir, op, live);
        }
        if Some(block) == entry {
            continue;
        }
        for &a in ir.block_args(block) {
            if !live.values.contains(&a) {
                process_value(ctx, ir, a, live);
            }
        }
    }
}

fn propagate_op(ctx: &Context, ir: &Ir, op: OpId, live: &mut Live) {
    for r in ir.regions(op) {
        propagate_region(ctx, ir, r, live);
    }
    if is_terminator(ctx, ir, op) {
        live.op(op);
        let branch = ctx.op_def(ir.op_name(op)).and_then(|d| d.branch);
        if branch.is_none() {
            for &succ in ir.successors(op) {
                for &a in ir.block_args(succ) {
                    live.value(a);
                }
            }
        }
        return;
    }
    if live.ops.contains(&op) {
        return;
    }
    if !would_be_trivially_dead(ctx, ir, op) {
        live.op(op);
        return;
    }
    for v in ir.results(op) {
        process_value(ctx, ir, v, live);
    }
    if ir.results(op).any(|v| live.values.contains(&v)) {
        live.op(op);
    }
}

fn delete_dead(rw: &mut Rewriter<'_>, regions: &[RegionId], live: &Live) -> bool {
    let mut erased = false;
    for &region in regions {
        if rw.ir.region_is_empty(region) {
            continue;
        }
        let single = rw.ir.region_blocks(region).count() == 1;
        for block in post_order(rw.ir, region) {
            if !single {
                erased |= erase_dead_successor_operands(rw, block, live);
            }
            let ops: Vec<OpId> = rw.ir.block_ops(block).collect();
            for &op in ops.iter().rev() {
                if !live.ops.contains(&op) {
                    drop_result_uses(rw, op);
                    rw.erase_op(op);
                    erased = true;
                } else {
                    let nested: Vec<RegionId> = rw.ir.regions(op).collect();
                    erased |= delete_dead(rw, &nested, live);
                }
            }
        }
        let blocks: Vec<BlockId> = rw.ir.region_blocks(region).skip(1).collect();
        for b in blocks {
            let args = rw.ir.block_args(b).to_vec();
            for (i, a) in args.iter().enumerate().rev() {
                if !live.values.contains(a) {
                    rw.ir.erase_block_arg(b, i);
                    erased = true;
                }
            }
        }
    }
    erased
}

/// Dead ops in graph regions may still use each other's results.
fn drop_result_uses(rw: &mut Rewriter<'_>, op: OpId) {
    let results: Vec<ValueId> = rw.ir.results(op).collect();
    for r in results {
        if rw.ir.has_uses(r) {
            let ty = rw.ir.value_type(r);
            let placeholder = rw.ir.create_placeholder(ty);
            rw.ir.replace_all_uses(r, placeholder);
        }
    }
}

fn erase_dead_successor_operands(rw: &mut Rewriter<'_>, block: BlockId, live: &Live) -> bool {
    let Some(term) = rw.ir.last_op(block) else {
        return false;
    };
    let Some(branch) = rw.ctx.op_def(rw.ir.op_name(term)).and_then(|d| d.branch) else {
        return false;
    };
    let mut erased = false;
    let succs = rw.ir.successors(term).to_vec();
    for (s, succ) in succs.into_iter().enumerate().rev() {
        let args = rw.ir.block_args(succ).to_vec();
        for (j, a) in args.iter().enumerate().rev() {
            if !live.values.contains(a) {
                (branch.erase_successor_operand)(rw.ctx, rw.ir, term, s, j);
                erased = true;
            }
        }
    }
    erased
}
