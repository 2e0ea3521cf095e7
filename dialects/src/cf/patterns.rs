//! Canonicalization patterns of `cf.br` and `cf.cond_br`, as MLIR's:
//! merging a block into its single predecessor, skipping blocks that
//! only branch on, constant conditions, identical successors, and a side
//! that is unreachable; assertions of a constant true condition.

use num_traits::Zero;
use silica_ir::dialect::inherent_attr;
use silica_ir::format::{segment_sizes, SEGMENTS};
use silica_ir::rewrite::{fold::constant_int, Pattern, Rewriter};
use silica_ir::{Attr, BlockId, OpId, OpSpec, ValueDef, ValueId};

/// Creates `cf.br ^dest(operands)` in place of `op`.
fn replace_with_br(rw: &mut Rewriter<'_>, op: OpId, dest: BlockId, operands: &[ValueId]) {
    let loc = rw.ir.op_loc(op);
    let name = rw.ctx.sym("cf.br");
    let attrs = rw.ctx.empty_dict();
    rw.set_insertion_point(op);
    rw.create(OpSpec {
        name,
        loc,
        operands,
        result_types: &[],
        successors: &[dest],
        regions: &[],
        attrs,
        props: None,
    });
    rw.erase_op(op);
}

/// If `succ` holds only a `cf.br` whose operands use `succ`'s arguments
/// at most as operands, the block it branches to and what it would be
/// passed (MLIR's `collapseBranch`).
fn collapse(
    rw: &Rewriter<'_>,
    succ: BlockId,
    operands: &[ValueId],
) -> Option<(BlockId, Vec<ValueId>)> {
    let ir = &*rw.ir;
    let term = ir.first_op(succ)?;
    if ir.last_op(succ) != Some(term) || rw.ctx.str(ir.op_name(term)) != "cf.br" {
        return None;
    }
    for &a in ir.block_args(succ) {
        if ir.uses(a).any(|u| ir.use_owner(u) != term) {
            return None;
        }
    }
    let dest = *ir.successors(term).first()?;
    if dest == succ {
        return None;
    }
    let forwarded = ir
        .operands(term)
        .map(|v| match ir.value_def(v) {
            ValueDef::Argument { block, index } if block == succ => operands[index as usize],
            _ => v,
        })
        .collect();
    Some((dest, forwarded))
}

fn br_to_single_pred(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let succ = rw.ir.successors(op)[0];
    let parent = rw.ir.op_block(op).expect("op in a block");
    if succ == parent || rw.predecessors(succ).len() != 1 {
        return false;
    }
    let operands: Vec<ValueId> = rw.ir.operands(op).collect();
    rw.erase_op(op);
    rw.merge_blocks(succ, parent, &operands);
    true
}

fn pass_through_br(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let succ = rw.ir.successors(op)[0];
    if Some(succ) == rw.ir.op_block(op) {
        return false;
    }
    let operands: Vec<ValueId> = rw.ir.operands(op).collect();
    let Some((dest, forwarded)) = collapse(rw, succ, &operands) else {
        return false;
    };
    replace_with_br(rw, op, dest, &forwarded);
    true
}

/// The parts of a `cf.cond_br`.
struct CondBr {
    cond: ValueId,
    true_dest: BlockId,
    true_ops: Vec<ValueId>,
    false_dest: BlockId,
    false_ops: Vec<ValueId>,
    weights: Option<Attr>,
}

fn cond_br_parts(rw: &Rewriter<'_>, op: OpId) -> CondBr {
    let ir = &*rw.ir;
    let seg = segment_sizes(rw.ctx, ir, op).unwrap_or_else(|| vec![1, 0, 0]);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let nt = seg.get(1).copied().unwrap_or(0);
    let succs = ir.successors(op);
    CondBr {
        cond: operands[0],
        true_dest: succs[0],
        true_ops: operands[1..1 + nt].to_vec(),
        false_dest: succs[1],
        false_ops: operands[1 + nt..].to_vec(),
        weights: inherent_attr(rw.ctx, ir, op, "branch_weights"),
    }
}

fn replace_with_cond_br(rw: &mut Rewriter<'_>, op: OpId, c: &CondBr) {
    let loc = rw.ir.op_loc(op);
    let name = rw.ctx.sym("cf.cond_br");
    let attrs = rw.ctx.empty_dict();
    let seg = rw
        .ctx
        .int_array_attr(32, &[1, c.true_ops.len() as i64, c.false_ops.len() as i64]);
    let mut props = vec![(rw.ctx.sym(SEGMENTS), seg)];
    if let Some(w) = c.weights {
        props.push((rw.ctx.sym("branch_weights"), w));
    }
    let props = rw.ctx.dict_attr(props);
    let mut operands = vec![c.cond];
    operands.extend(&c.true_ops);
    operands.extend(&c.false_ops);
    rw.set_insertion_point(op);
    rw.create(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[],
        successors: &[c.true_dest, c.false_dest],
        regions: &[],
        attrs,
        props: Some(props),
    });
    rw.erase_op(op);
}

fn const_cond(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let c = cond_br_parts(rw, op);
    let Some(value) = constant_int(rw.ctx, rw.ir, c.cond) else {
        return false;
    };
    let (dest, ops) = if value.is_zero() {
        (c.false_dest, c.false_ops)
    } else {
        (c.true_dest, c.true_ops)
    };
    replace_with_br(rw, op, dest, &ops);
    true
}

/// Whether `block` holds nothing but `ub.unreachable`.
fn only_unreachable(rw: &Rewriter<'_>, block: BlockId) -> bool {
    let ir = &*rw.ir;
    ir.first_op(block)
        .is_some_and(|o| ir.next_op(o).is_none() && rw.ctx.str(ir.op_name(o)) == "ub.unreachable")
}

/// A conditional branch with an unreachable side always takes the other.
fn drop_unreachable_side(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let c = cond_br_parts(rw, op);
    if only_unreachable(rw, c.true_dest) {
        replace_with_br(rw, op, c.false_dest, &c.false_ops);
    } else if only_unreachable(rw, c.false_dest) {
        replace_with_br(rw, op, c.true_dest, &c.true_ops);
    } else {
        return false;
    }
    true
}

fn pass_through_cond_br(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let mut c = cond_br_parts(rw, op);
    let t = collapse(rw, c.true_dest, &c.true_ops);
    let f = collapse(rw, c.false_dest, &c.false_ops);
    if t.is_none() && f.is_none() {
        return false;
    }
    if let Some((d, ops)) = t {
        c.true_dest = d;
        c.true_ops = ops;
    }
    if let Some((d, ops)) = f {
        c.false_dest = d;
        c.false_ops = ops;
    }
    replace_with_cond_br(rw, op, &c);
    true
}

fn identical_successors(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let c = cond_br_parts(rw, op);
    if c.true_dest != c.false_dest {
        return false;
    }
    if c.true_ops == c.false_ops {
        replace_with_br(rw, op, c.true_dest, &c.true_ops);
        return true;
    }
    let parent = rw.ir.op_block(op);
    let preds = rw.predecessors(c.true_dest);
    if preds.iter().any(|&p| Some(p) != parent) {
        return false;
    }
    let loc = rw.ir.op_loc(op);
    rw.set_insertion_point(op);
    let mut merged = Vec::with_capacity(c.true_ops.len());
    for (&t, &f) in c.true_ops.iter().zip(&c.false_ops) {
        if t == f {
            merged.push(t);
        } else {
            let ty = rw.ir.value_type(t);
            let s = rw.create_simple("arith.select", &[c.cond, t, f], &[ty], None, loc);
            merged.push(rw.ir.result(s, 0));
        }
    }
    replace_with_br(rw, op, c.true_dest, &merged);
    true
}

/// `cf.br` patterns.
/// An assertion of a constant true condition is erased (MLIR's
/// `AssertOp::canonicalize`).
fn erase_true_assert(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let cond = rw.ir.operand(op, 0);
    match constant_int(rw.ctx, rw.ir, cond) {
        Some(v) if !v.is_zero() => {
            rw.erase_op(op);
            true
        }
        _ => false,
    }
}

/// `cf.assert` patterns.
pub static ASSERT_PATTERNS: &[Pattern] = &[Pattern::new("EraseTrueAssert", erase_true_assert)];

pub static BR_PATTERNS: &[Pattern] = &[
    Pattern::new("SimplifyBrToBlockWithSinglePred", br_to_single_pred),
    Pattern::new("SimplifyPassThroughBr", pass_through_br),
];

/// `cf.cond_br` patterns.
pub static COND_BR_PATTERNS: &[Pattern] = &[
    Pattern::new("SimplifyConstCondBranchPred", const_cond),
    Pattern::new("SimplifyPassThroughCondBranch", pass_through_cond_br),
    Pattern::new(
        "SimplifyCondBranchIdenticalSuccessors",
        identical_successors,
    ),
    Pattern::new("DropUnreachableCondBranch", drop_unreachable_side),
];
