//! Skewing the ops of a loop body against each other (MLIR's
//! `affineForOpBodySkew`): each op of the body gets a shift, in
//! iterations; the loop becomes a sequence of loops over the shifted
//! iteration space — a prologue where only the least shifted ops run, a
//! steady state where all run (the more shifted ones for earlier
//! iterations, their induction variable rewritten `iv - shift * step`),
//! an epilogue where the most shifted ones finish. Loops that run once
//! are promoted. This is what overlaps a transfer with the computation
//! on the previous one.

use crate::for_op::{self, Bound};
use crate::loops::{constant_trip_count, promote_if_single_iteration};
use rustc_hash::FxHashMap;
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::{AttrKind, Context, Ir, OpId, OpSpec, ValueId};

/// Whether every value an op of the body of `op` defines is used, within
/// the body, only by ops with the same shift (MLIR's
/// `isOpwiseShiftValid`; `shifts` follows the body's ops, terminator
/// excluded).
pub fn is_opwise_shift_valid(ir: &Ir, op: OpId, shifts: &[u64]) -> bool {
    let ops = for_op::body_ops(ir, op);
    if ops.len() != shifts.len() {
        return false;
    }
    let shift_of = |user: OpId| -> Option<u64> {
        ops.iter()
            .position(|&o| ir.is_ancestor(o, user))
            .map(|i| shifts[i])
    };
    ops.iter().zip(shifts).all(|(&o, &s)| {
        ir.results(o).all(|r| {
            ir.uses(r)
                .all(|u| shift_of(ir.use_owner(u)).is_none_or(|t| t == s))
        })
    })
}

/// `map` with `offset` added to each result.
fn shifted(map: &AffineMap, offset: i64) -> AffineMap {
    AffineMap {
        num_dims: map.num_dims,
        num_symbols: map.num_symbols,
        results: map
            .results
            .iter()
            .map(|e| e.clone().plus(AffineExpr::Constant(offset)))
            .collect(),
    }
}

/// An `affine.apply (d0) -> (d0 + offset)` of `v` before `at`.
fn apply_shift(ctx: &mut Context, ir: &mut Ir, v: ValueId, offset: i64, at: OpId) -> ValueId {
    let map = AffineMap {
        num_dims: 1,
        num_symbols: 0,
        results: Box::new([AffineExpr::Dim(0).plus(AffineExpr::Constant(offset))]),
    };
    let index = ctx.index_type();
    let m = ctx.intern_attr(AttrKind::AffineMap(map));
    let key = ctx.sym("map");
    let props = ctx.dict_attr(vec![(key, m)]);
    let name = ctx.sym("affine.apply");
    let attrs = ctx.empty_dict();
    let loc = ir.op_loc(at);
    let apply = ir.create_op(OpSpec {
        name,
        loc,
        operands: &[v],
        result_types: &[index],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    });
    ir.insert_op_before(at, apply);
    ir.result(apply, 0)
}

/// One loop over `[lb + from, lb + to)` of the groups `queue[offset..]`
/// of `src`'s body (MLIR's `generateShiftedLoop`); `None` when it ran
/// once and was promoted.
fn shifted_loop(
    ctx: &mut Context,
    ir: &mut Ir,
    src: OpId,
    from: i64,
    to: i64,
    queue: &[(u64, Vec<OpId>)],
) -> Option<OpId> {
    let (lb, _) = for_op::bounds(ctx, ir, src)?;
    let step = for_op::step(ctx, ir, src);
    let lower = Bound {
        map: shifted(&lb.map, from),
        operands: lb.operands.clone(),
    };
    let upper = Bound {
        map: shifted(&lb.map, to),
        operands: lb.operands,
    };
    let loc = ir.op_loc(src);
    let chunk = for_op::create_for(ctx, ir, loc, &lower, &upper, step);
    ir.insert_op_before(src, chunk);
    let end = for_op::body(ir, chunk).and_then(|b| ir.last_op(b))?;
    let new_iv = for_op::induction_var(ir, chunk)?;
    let src_iv = for_op::induction_var(ir, src)?;
    for (shift, ops) in queue {
        let mut map: FxHashMap<ValueId, ValueId> = FxHashMap::default();
        let iv = if ir.has_uses(src_iv) && *shift != 0 {
            apply_shift(ctx, ir, new_iv, -(step * *shift as i64), end)
        } else {
            new_iv
        };
        map.insert(src_iv, iv);
        for &op in ops {
            let copy = ir.clone_op(op);
            let mut renamed = Vec::new();
            ir.walk(copy, &mut |o| {
                for u in ir.operand_uses(o) {
                    if let Some(&v) = map.get(&ir.use_value(u)) {
                        renamed.push((u, v));
                    }
                }
            });
            for (u, v) in renamed {
                ir.set_use(u, v);
            }
            let pairs: Vec<(ValueId, ValueId)> = ir.results(op).zip(ir.results(copy)).collect();
            map.extend(pairs);
            ir.insert_op_before(end, copy);
        }
    }
    if promote_if_single_iteration(ctx, ir, chunk) {
        return None;
    }
    Some(chunk)
}

/// Skews the body of the loop `op` by `shifts` (one per body op, the
/// terminator excluded; see the module documentation). Loops without a
/// constant trip count, with results, with empty bodies or with shifts as
/// large as the body are left alone (`false`); shifts that break the def-use order of the body
/// are refused as well. On success the loop is replaced by its parts.
pub fn skew_loop_body(ctx: &mut Context, ir: &mut Ir, op: OpId, shifts: &[u64]) -> bool {
    let ops = for_op::body_ops(ir, op);
    if ops.is_empty()
        || ops.len() != shifts.len()
        || ir.num_results(op) > 0
        || !is_opwise_shift_valid(ir, op, shifts)
    {
        return false;
    }
    let Some(trips) = constant_trip_count(ctx, ir, op) else {
        return false;
    };
    let Ok(trips) = i64::try_from(trips) else {
        return false;
    };
    let max_shift = shifts.iter().copied().max().unwrap_or(0);
    if max_shift as usize >= ops.len() {
        return false;
    }
    let step = for_op::step(ctx, ir, op);
    let mut groups: Vec<Vec<OpId>> = vec![Vec::new(); max_shift as usize + 1];
    for (&o, &s) in ops.iter().zip(shifts) {
        groups[s as usize].push(o);
    }
    let mut queue: Vec<(u64, Vec<OpId>)> = Vec::new();
    let mut lb_shift = 0i64;
    for (d, group) in groups.into_iter().enumerate() {
        if group.is_empty() {
            continue;
        }
        let d = d as i64;
        if queue.is_empty() {
            lb_shift = d * step;
        } else if lb_shift + trips * step < d * step {
            shifted_loop(ctx, ir, op, lb_shift, lb_shift + trips * step, &queue);
            queue.clear();
            lb_shift += trips * step;
        } else {
            shifted_loop(ctx, ir, op, lb_shift, d * step, &queue);
            lb_shift = d * step;
        }
        queue.push((d as u64, group));
    }
    for i in 0..queue.len() {
        let ub_shift = (queue[i].0 as i64 + trips) * step;
        shifted_loop(ctx, ir, op, lb_shift, ub_shift, &queue[i..]);
        lb_shift = ub_shift;
    }
    ir.erase_op(op);
    true
}
