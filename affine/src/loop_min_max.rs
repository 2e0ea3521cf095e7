//! `scf-for-loop-canonicalization`: an `affine.min`/`affine.max` over
//! induction variables of enclosing `scf.for`/`scf.parallel` loops with
//! constant bounds (and otherwise constant operands) becomes the one
//! result that is always the smallest (largest) over every iteration,
//! as an `affine.apply` (MLIR's `canonicalizeMinMaxOpInLoop`). The
//! iteration points are enumerated, which is exact, as MLIR's integer
//! constraint check is; large iteration spaces are left alone.

use crate::canonicalize::{canonicalize_map, map_attr_of, replace_with_map_op};
use silica_ir::affine::AffineMap;
use silica_ir::format::segment_sizes;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::rewrite::fold::constant_i64;
use silica_ir::rewrite::{apply_patterns_greedily, GreedyConfig, Pattern, PatternSet, Rewriter};
use silica_ir::{Context, Diagnostic, Ir, OpId, ValueDef, ValueId};

/// Iteration points enumerated at most.
const MAX_POINTS: usize = 1 << 16;

/// The values an operand takes: one constant, or every value of a loop's
/// induction variable.
fn operand_values(ctx: &Context, ir: &Ir, v: ValueId) -> Option<Vec<i64>> {
    if let Some(c) = constant_i64(ctx, ir, v) {
        return Some(vec![c]);
    }
    let ValueDef::Argument { block, index } = ir.value_def(v) else {
        return None;
    };
    let region = ir.block_region(block)?;
    let lp = ir.region_op(region)?;
    let index = index as usize;
    let (lb, ub, step) = match ctx.str(ir.op_name(lp)) {
        "scf.for" if index == 0 => (ir.operand(lp, 0), ir.operand(lp, 1), ir.operand(lp, 2)),
        "scf.parallel" => {
            let n = *segment_sizes(ctx, ir, lp)?.first()?;
            if index >= n {
                return None;
            }
            (
                ir.operand(lp, index),
                ir.operand(lp, n + index),
                ir.operand(lp, 2 * n + index),
            )
        }
        _ => return None,
    };
    let (lb, ub, step) = (
        constant_i64(ctx, ir, lb)?,
        constant_i64(ctx, ir, ub)?,
        constant_i64(ctx, ir, step)?,
    );
    if step <= 0 || lb >= ub {
        return None;
    }
    let count = usize::try_from((ub - lb - 1) / step + 1).ok()?;
    (count <= MAX_POINTS).then(|| (0..count as i64).map(|k| lb + k * step).collect())
}

/// Whether some operand of `op` is a loop induction variable.
fn has_loop_operand(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ir.operands(op).any(|v| {
        matches!(ir.value_def(v), ValueDef::Argument { block, .. }
        if ir.block_region(block).and_then(|r| ir.region_op(r)).is_some_and(|l| {
            matches!(ctx.str(ir.op_name(l)), "scf.for" | "scf.parallel")
        }))
    })
}

/// The index of the result of `map` that bounds all the others at every
/// point of `values` (below for a min, above for a max).
fn bounding_result(map: &AffineMap, values: &[Vec<i64>], is_min: bool) -> Option<usize> {
    let nd = map.num_dims as usize;
    let mut candidates: Vec<bool> = vec![true; map.results.len()];
    let mut point = vec![0usize; values.len()];
    loop {
        let at: Vec<i64> = point.iter().zip(values).map(|(&i, v)| v[i]).collect();
        let results: Vec<i64> = map
            .results
            .iter()
            .map(|e| e.eval(&at[..nd], &at[nd..]))
            .collect::<Option<_>>()?;
        for (i, c) in candidates.iter_mut().enumerate() {
            let bounds = results.iter().all(|&r| {
                if is_min {
                    results[i] <= r
                } else {
                    results[i] >= r
                }
            });
            *c &= bounds;
        }
        // Next point, odometer style.
        let mut k = 0;
        loop {
            if k == point.len() {
                return candidates.iter().position(|&c| c);
            }
            point[k] += 1;
            if point[k] < values[k].len() {
                break;
            }
            point[k] = 0;
            k += 1;
        }
    }
}

fn simplify_in_loop(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let is_min = rw.ctx.str(rw.ir.op_name(op)) == "affine.min";
    if !has_loop_operand(rw.ctx, rw.ir, op) {
        return false;
    }
    let Some(map) = map_attr_of(rw.ctx, rw.ir, op) else {
        return false;
    };
    let operands: Vec<ValueId> = rw.ir.operands(op).collect();
    let Some(values) = operands
        .iter()
        .map(|&v| operand_values(rw.ctx, rw.ir, v))
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    let points = values
        .iter()
        .try_fold(1usize, |n, v| n.checked_mul(v.len()))
        .filter(|&n| n <= MAX_POINTS);
    if points.is_none() {
        return false;
    }
    let Some(i) = bounding_result(&map, &values, is_min) else {
        return false;
    };
    let single = AffineMap {
        num_dims: map.num_dims,
        num_symbols: map.num_symbols,
        results: Box::new([map.results[i].clone()]),
    };
    let (single, operands) = canonicalize_map(rw.ctx, rw.ir, &single, &operands);
    replace_with_map_op(rw, op, "affine.apply", single, &operands);
    true
}

static PATTERN: Pattern = Pattern::new("AffineOpSCFCanonicalizationPattern", simplify_in_loop);

struct ScfForLoopCanonicalization;

impl Pass for ScfForLoopCanonicalization {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let mut patterns = PatternSet::default();
        for name in ["affine.min", "affine.max"] {
            let sym = ctx.sym(name);
            patterns.add(sym, [&PATTERN]);
        }
        apply_patterns_greedily(ctx, ir, op, &patterns, GreedyConfig::default());
        Ok(())
    }
}

/// The `scf-for-loop-canonicalization` pass.
pub static SCF_FOR_LOOP_CANONICALIZATION: PassInfo = PassInfo {
    argument: "scf-for-loop-canonicalization",
    name: "SCFForLoopCanonicalization",
    description: "Canonicalize operations within scf.for loop bodies",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(ScfForLoopCanonicalization)),
};
