//! `affine-loop-normalize`: MLIR's `normalizeAffineFor` and
//! `normalizeAffineParallel`. A loop becomes one from 0 with step 1 whose
//! upper bound is `(ub - lb) ceildiv step` (each result of a `min` upper
//! bound; a `max` lower bound is left alone), and an `affine.apply` at the
//! top of the body rebuilds the old induction variable as
//! `lb + iv * step`. With `promote-single-iter`, a loop that runs once is
//! replaced by its body instead. `affine.parallel` ops with `max`/`min`
//! bounds are left alone. Inner loops are normalized before outer ones.

use crate::dialect::map_of;
use crate::for_op::{bounds, induction_var, is_for, set_bounds, step, Bound};
use crate::loops::build::create_apply;
use crate::loops::promote_if_single_iteration;
use crate::loops::trip_count::padded_lower;
use crate::parallel::{group_sizes, i64_array, int_list};
use crate::value_map::difference;
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::dialect::{inherent_attr, set_inherent_attr};
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId, ValueId};

const PARALLEL: &str = "affine.parallel";

/// The `affine.for` and `affine.parallel` ops in `root`, inner ones first
/// (MLIR's post-order walk).
fn loops_post_order(ctx: &Context, ir: &Ir, root: OpId) -> Vec<OpId> {
    fn visit(ctx: &Context, ir: &Ir, op: OpId, out: &mut Vec<OpId>) {
        for r in ir.regions(op) {
            for b in ir.region_blocks(r) {
                for o in ir.block_ops(b) {
                    visit(ctx, ir, o, out);
                }
            }
        }
        if is_for(ctx, ir, op) || ctx.str(ir.op_name(op)) == PARALLEL {
            out.push(op);
        }
    }
    let mut out = Vec::new();
    visit(ctx, ir, root, &mut out);
    out
}

/// Replaces every use of `iv` but the one in `apply` by `apply`'s result,
/// and puts `apply` first in `block`.
fn rebuild_iv(ir: &mut Ir, block: silica_ir::BlockId, iv: ValueId, apply: OpId) {
    match ir.first_op(block) {
        Some(first) => ir.insert_op_before(first, apply),
        None => ir.append_op(block, apply),
    }
    let new = ir.result(apply, 0);
    let uses: Vec<_> = ir.uses(iv).filter(|&u| ir.use_owner(u) != apply).collect();
    for u in uses {
        ir.set_use(u, new);
    }
}

/// Normalizes the `affine.for` `op` (MLIR's `normalizeAffineFor`).
pub fn normalize_for(ctx: &mut Context, ir: &mut Ir, op: OpId, promote_single_iter: bool) {
    if promote_single_iter && promote_if_single_iteration(ctx, ir, op) {
        return;
    }
    let Some((lower, upper)) = bounds(ctx, ir, op) else {
        return;
    };
    let old_step = step(ctx, ir, op);
    if lower.as_constant() == Some(0) && old_step == 1 {
        return;
    }
    if lower.map.results.len() != 1 {
        return;
    }
    let (Some(block), Some(iv)) = (crate::for_op::body(ir, op), induction_var(ir, op)) else {
        return;
    };
    let span = difference(ctx, ir, &upper, &padded_lower(&lower, &upper));
    let (map, operands) = crate::canonicalize::compose_map(ctx, ir, &span.map, &span.operands);
    let new_upper = Bound {
        map: AffineMap {
            results: map
                .results
                .iter()
                .map(|e| e.clone().ceil_div(AffineExpr::Constant(old_step)))
                .collect(),
            ..map
        },
        operands,
    };
    set_bounds(ctx, ir, op, &Bound::constant(0), &new_upper, 1);
    // The old induction variable: `lb - (iv * -step)`.
    let scaled = Bound {
        map: AffineMap {
            num_dims: 1,
            num_symbols: 0,
            results: Box::new([AffineExpr::Dim(0)
                .negate()
                .times(AffineExpr::Constant(old_step))]),
        },
        operands: vec![iv],
    };
    let old_iv = difference(ctx, ir, &lower, &scaled);
    let (map, operands) = crate::canonicalize::compose_map(ctx, ir, &old_iv.map, &old_iv.operands);
    let apply = create_apply(ctx, ir, map, &operands, ir.op_loc(op));
    rebuild_iv(ir, block, iv, apply);
}

/// The map named `name` of the `affine.parallel` `op`.
fn parallel_map(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<AffineMap> {
    map_of(ctx, inherent_attr(ctx, ir, op, name)).cloned()
}

/// Normalizes the `affine.parallel` `op` (MLIR's `normalizeAffineParallel`).
pub fn normalize_parallel(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let lb_groups = group_sizes(ctx, inherent_attr(ctx, ir, op, "lowerBoundsGroups"));
    let ub_groups = group_sizes(ctx, inherent_attr(ctx, ir, op, "upperBoundsGroups"));
    if lb_groups.iter().chain(&ub_groups).any(|&g| g != 1) {
        return;
    }
    let (Some(lb_map), Some(ub_map)) = (
        parallel_map(ctx, ir, op, "lowerBoundsMap"),
        parallel_map(ctx, ir, op, "upperBoundsMap"),
    ) else {
        return;
    };
    let steps = int_list(ctx, inherent_attr(ctx, ir, op, "steps"));
    let n = steps.len();
    if lb_map.results.len() != n || ub_map.results.len() != n {
        return;
    }
    let normalized = steps
        .iter()
        .zip(lb_map.results.iter())
        .all(|(&s, e)| s == 1 && *e == AffineExpr::Constant(0));
    if normalized {
        return;
    }
    let Some(block) = crate::for_op::body(ir, op) else {
        return;
    };
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let nl = (lb_map.num_dims + lb_map.num_symbols) as usize;
    if operands.len() < nl {
        return;
    }
    let lower = Bound {
        map: lb_map.clone(),
        operands: operands[..nl].to_vec(),
    };
    let upper = Bound {
        map: ub_map,
        operands: operands[nl..].to_vec(),
    };
    let ranges = difference(ctx, ir, &upper, &lower);
    let ivs: Vec<ValueId> = ir.block_args(block).to_vec();
    let nd = lb_map.num_dims as usize;
    let mut ub_exprs = Vec::with_capacity(n);
    // Each apply goes after the previous one, before the body's first op.
    let anchor = ir.first_op(block);
    for (i, &s) in steps.iter().enumerate() {
        ub_exprs.push(
            ranges.map.results[i]
                .clone()
                .ceil_div(AffineExpr::Constant(s)),
        );
        let expr = lb_map.results[i]
            .clone()
            .plus(AffineExpr::Dim(lb_map.num_dims).times(AffineExpr::Constant(s)));
        let map = AffineMap {
            num_dims: lb_map.num_dims + 1,
            num_symbols: lb_map.num_symbols,
            results: Box::new([expr]),
        };
        let mut apply_operands = lower.operands[..nd].to_vec();
        apply_operands.push(ivs[i]);
        apply_operands.extend(&lower.operands[nd..]);
        let apply = create_apply(ctx, ir, map, &apply_operands, ir.op_loc(op));
        match anchor {
            Some(a) => ir.insert_op_before(a, apply),
            None => ir.append_op(block, apply),
        }
        let new = ir.result(apply, 0);
        let uses: Vec<_> = ir
            .uses(ivs[i])
            .filter(|&u| ir.use_owner(u) != apply)
            .collect();
        for u in uses {
            ir.set_use(u, new);
        }
    }
    let ones = i64_array(ctx, &vec![1; n]);
    set_inherent_attr(ctx, ir, op, "steps", ones);
    let zero_map = AffineMap {
        num_dims: 0,
        num_symbols: 0,
        results: vec![AffineExpr::Constant(0); n].into(),
    };
    let new_ub = AffineMap {
        num_dims: ranges.map.num_dims,
        num_symbols: ranges.map.num_symbols,
        results: ub_exprs.into(),
    };
    let lb_attr = ctx.intern_attr(AttrKind::AffineMap(zero_map));
    let ub_attr = ctx.intern_attr(AttrKind::AffineMap(new_ub));
    set_inherent_attr(ctx, ir, op, "lowerBoundsMap", lb_attr);
    set_inherent_attr(ctx, ir, op, "upperBoundsMap", ub_attr);
    ir.set_operands(op, &ranges.operands);
}

/// `affine-loop-normalize` with its option.
struct LoopNormalize {
    promote_single_iter: bool,
}

impl Pass for LoopNormalize {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        for l in loops_post_order(ctx, ir, op) {
            if ir.is_erased(l) {
                continue;
            }
            if is_for(ctx, ir, l) {
                normalize_for(ctx, ir, l, self.promote_single_iter);
            } else {
                normalize_parallel(ctx, ir, l);
            }
        }
        Ok(())
    }
}

static OPTIONS: &[PassOptionInfo] = &[PassOptionInfo {
    name: "promote-single-iter",
    description: "Promote single iteration loops",
    kind: OptionKind::Bool,
    default: "false",
}];

/// The `affine-loop-normalize` pass.
pub static AFFINE_LOOP_NORMALIZE: PassInfo = PassInfo {
    argument: "affine-loop-normalize",
    name: "AffineLoopNormalize",
    description: "Apply normalization transformations to affine loop-like ops",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o: &PassOptions| {
        Ok(Box::new(LoopNormalize {
            promote_single_iter: o.bool("promote-single-iter"),
        }))
    },
};
