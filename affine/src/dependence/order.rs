//! Program order between two ops of one affine scope: the closest block
//! around both (MLIR's `getCommonBlockInAffineScope`) and whether the
//! source's ancestor in it comes before the destination's.

use silica_ir::dialect::Traits;
use silica_ir::{BlockId, Context, Ir, OpId};

fn is_affine_scope(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_def(ir.op_name(op))
        .is_some_and(|d| d.traits.has(Traits::AFFINE_SCOPE))
}

/// The blocks around `op` up to and including the one directly in its
/// affine scope, innermost first.
fn ancestor_blocks(ctx: &Context, ir: &Ir, op: OpId) -> Vec<BlockId> {
    let mut out = Vec::new();
    let mut block = ir.op_block(op);
    while let Some(b) = block {
        out.push(b);
        let Some(parent) = ir.block_region(b).and_then(|r| ir.region_op(r)) else {
            break;
        };
        if is_affine_scope(ctx, ir, parent) {
            break;
        }
        block = ir.op_block(parent);
    }
    out
}

/// The innermost block around both ops within their affine scope.
pub fn common_block(ctx: &Context, ir: &Ir, a: OpId, b: OpId) -> Option<BlockId> {
    let (ba, bb) = (ancestor_blocks(ctx, ir, a), ancestor_blocks(ctx, ir, b));
    let mut common = None;
    for (x, y) in ba.iter().rev().zip(bb.iter().rev()) {
        if x != y {
            break;
        }
        common = Some(*x);
    }
    common
}

/// The ancestor of `op` (or `op`) directly in `block`.
fn ancestor_in(ir: &Ir, block: BlockId, mut op: OpId) -> Option<OpId> {
    loop {
        if ir.op_block(op) == Some(block) {
            return Some(op);
        }
        op = ir.parent_op(op)?;
    }
}

/// Whether `src`'s ancestor in the common block comes strictly before
/// `dst`'s.
pub fn src_before_dst(ctx: &Context, ir: &Ir, src: OpId, dst: OpId) -> bool {
    let Some(block) = common_block(ctx, ir, src, dst) else {
        return false;
    };
    let (Some(a), Some(b)) = (ancestor_in(ir, block, src), ancestor_in(ir, block, dst)) else {
        return false;
    };
    let mut cur = ir.next_op(a);
    while let Some(op) = cur {
        if op == b {
            return true;
        }
        cur = ir.next_op(op);
    }
    false
}

/// The region of the nearest ancestor of `op` that is not an affine
/// loop or condition (MLIR's `getAffineAnalysisScope`).
pub fn analysis_scope(ctx: &Context, ir: &Ir, op: OpId) -> Option<silica_ir::RegionId> {
    let mut cur = op;
    while let Some(parent) = ir.parent_op(cur) {
        if !matches!(
            ctx.str(ir.op_name(parent)),
            "affine.for" | "affine.if" | "affine.parallel"
        ) {
            return ir.op_block(cur).and_then(|b| ir.block_region(b));
        }
        cur = parent;
    }
    None
}
