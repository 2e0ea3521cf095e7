//! Folding of `affine.for` (MLIR's `AffineForOp::fold`): bounds whose
//! operands are constants become constants, bound maps are composed and
//! canonicalized with their operands (results another result dominates
//! drop), and a loop that never runs with results yields its initial
//! values.

use crate::bounds::{bound_map, constant_bound, simplify_min_max, step};
use crate::canonicalize::compose_map;
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::dialect::set_inherent_attr;
use silica_ir::format::segment_sizes;
use silica_ir::rewrite::fold::constant_i64;
use silica_ir::rewrite::{FoldCtx, FoldResult, OpFoldResult};
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, ValueId};

const LOWER: &str = "lowerBoundMap";
const UPPER: &str = "upperBoundMap";

/// A loop's bounds: maps and their operands.
struct Bounds {
    lower: (AffineMap, Vec<ValueId>),
    upper: (AffineMap, Vec<ValueId>),
    inits: Vec<ValueId>,
}

impl Bounds {
    fn of(ctx: &Context, ir: &Ir, op: OpId) -> Option<Self> {
        let sizes = segment_sizes(ctx, ir, op)?;
        let (nl, nu) = (*sizes.first()?, *sizes.get(1)?);
        let operands: Vec<ValueId> = ir.operands(op).collect();
        Some(Bounds {
            lower: (bound_map(ctx, ir, op, LOWER)?, operands[..nl].to_vec()),
            upper: (
                bound_map(ctx, ir, op, UPPER)?,
                operands[nl..nl + nu].to_vec(),
            ),
            inits: operands[nl + nu..].to_vec(),
        })
    }

    /// Writes the bounds back to `op`.
    fn store(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) {
        let mut operands = self.lower.1.clone();
        operands.extend(&self.upper.1);
        operands.extend(&self.inits);
        ir.set_operands(op, &operands);
        let sizes = [self.lower.1.len(), self.upper.1.len(), self.inits.len()].map(|n| n as i64);
        let segments = ctx.int_array_attr(32, &sizes);
        set_inherent_attr(ctx, ir, op, "operandSegmentSizes", segments);
        let lower = ctx.intern_attr(AttrKind::AffineMap(self.lower.0.clone()));
        set_inherent_attr(ctx, ir, op, LOWER, lower);
        let upper = ctx.intern_attr(AttrKind::AffineMap(self.upper.0.clone()));
        set_inherent_attr(ctx, ir, op, UPPER, upper);
    }
}

fn constant_map(c: i64) -> AffineMap {
    AffineMap {
        num_dims: 0,
        num_symbols: 0,
        results: Box::new([AffineExpr::Constant(c)]),
    }
}

fn is_constant_map(m: &AffineMap) -> bool {
    m.results.len() == 1 && matches!(m.results[0], AffineExpr::Constant(_))
}

/// The extreme (max for a lower bound) of a bound map whose used
/// operands are all constants.
fn fold_bound(
    ctx: &Context,
    ir: &Ir,
    bound: &(AffineMap, Vec<ValueId>),
    lower: bool,
) -> Option<i64> {
    let (map, operands) = bound;
    let values: Vec<Option<i64>> = operands.iter().map(|&v| constant_i64(ctx, ir, v)).collect();
    let folded = crate::bounds::eval_results(map, &values)?;
    if lower {
        folded.into_iter().max()
    } else {
        folded.into_iter().min()
    }
}

/// Drops repeated results.
fn dedupe(map: AffineMap) -> AffineMap {
    let mut results: Vec<AffineExpr> = Vec::with_capacity(map.results.len());
    for e in map.results.iter() {
        if !results.contains(e) {
            results.push(e.clone());
        }
    }
    AffineMap {
        results: results.into_boxed_slice(),
        ..map
    }
}

/// MLIR's `canonicalizeLoopBounds`: the bounds composed, canonicalized
/// and simplified with their operands' ranges; a bound changes only when
/// its map does.
fn canonicalize_bounds(ctx: &mut Context, ir: &mut Ir, b: &mut Bounds) -> bool {
    let (lb_map, lb_ops) = compose_map(ctx, ir, &b.lower.0, &b.lower.1);
    let lb_map = dedupe(simplify_min_max(ctx, ir, &lb_map, &lb_ops, true));
    let ub_simplified = simplify_min_max(ctx, ir, &b.upper.0, &b.upper.1, false);
    let (ub_map, ub_ops) = compose_map(ctx, ir, &ub_simplified, &b.upper.1);
    let ub_map = dedupe(ub_map);
    let mut changed = false;
    if lb_map != b.lower.0 {
        b.lower = (lb_map, lb_ops);
        changed = true;
    }
    if ub_map != b.upper.0 {
        b.upper = (ub_map, ub_ops);
        changed = true;
    }
    changed
}

/// Whether the loop never runs: constant bounds with the upper one not
/// above the lower one.
fn zero_trips(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    match (
        constant_bound(ctx, ir, op, LOWER),
        constant_bound(ctx, ir, op, UPPER),
        step(ctx, ir, op),
    ) {
        (Some(lb), Some(ub), Some(s)) => s > 0 && ub <= lb,
        _ => false,
    }
}

/// `affine.for`'s fold.
pub fn fold_for(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    let Some(mut b) = Bounds::of(fc.ctx, fc.ir, op) else {
        return FoldResult::Fail;
    };
    let mut folded = false;
    if !is_constant_map(&b.lower.0) {
        if let Some(c) = fold_bound(fc.ctx, fc.ir, &b.lower, true) {
            b.lower = (constant_map(c), Vec::new());
            folded = true;
        }
    }
    if !is_constant_map(&b.upper.0) {
        if let Some(c) = fold_bound(fc.ctx, fc.ir, &b.upper, false) {
            b.upper = (constant_map(c), Vec::new());
            folded = true;
        }
    }
    folded |= canonicalize_bounds(fc.ctx, fc.ir, &mut b);
    if folded {
        b.store(fc.ctx, fc.ir, op);
    }
    if !b.inits.is_empty() && zero_trips(fc.ctx, fc.ir, op) {
        return FoldResult::Results(b.inits.iter().map(|&v| OpFoldResult::Value(v)).collect());
    }
    if folded {
        FoldResult::InPlace
    } else {
        FoldResult::Fail
    }
}
