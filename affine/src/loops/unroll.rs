//! Loop unrolling of `affine.for` as MLIR's loop utilities do it: the body
//! is repeated `factor` times inside the loop (the step scaled by the
//! factor, each copy's induction variable shifted by an `affine.apply`,
//! iteration arguments threaded from one copy to the next), a cleanup
//! loop runs the iterations that do not fill a whole unrolled step, and a
//! loop left with one iteration is promoted into its block.

use super::build::{
    clone_mapped, create_apply, iter_args, lower_bound, num_control_operands, set_lower_bound,
    set_step, set_upper_bound, shift_map, terminator, upper_bound,
};
use super::promote::promote_if_single_iteration;
use super::trip_count::{
    constant_trip_count, largest_divisor_of_trip_count, trip_count_map, upper_bound_on_trip_count,
};
use crate::canonicalize::{canonicalize_map, compose_map};
use crate::for_op::{body, induction_var, step, Bound};
use rustc_hash::FxHashMap;
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::affine_flatten::simplify_map;
use silica_ir::{Context, Ir, OpId, ValueId};

/// Why a loop was left as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnrollError {
    /// The trip count is neither constant nor bounded (full unrolling).
    UnknownTripCount,
    /// The constant trip count is below the factor.
    TripCountBelowFactor,
    /// The trip count is not a multiple of the factor and a bound has
    /// several results, so no cleanup loop can be built.
    NoCleanupLoop,
    /// Unroll-and-jam only: a bound of a loop inside depends on the loop.
    VariantInnerBounds,
    /// The op is not a well-formed `affine.for`.
    NotALoop,
}

/// The lower bound of the cleanup loop when `op` is unrolled by `factor`
/// (also the new upper bound of the unrolled loop): for each upper bound
/// result with trip count `t`, `lb + (t - t mod factor) * step`, composed
/// and simplified over the bound operands. MLIR's `getCleanupLoopLowerBound`.
fn cleanup_lower_bound(ctx: &mut Context, ir: &mut Ir, op: OpId, factor: u64) -> Option<Bound> {
    let tc = trip_count_map(ctx, ir, op)?;
    let lower = lower_bound(ctx, ir, op)?;
    let loc = ir.op_loc(op);
    let lb = create_apply(ctx, ir, lower.map.clone(), &lower.operands, loc);
    ir.insert_op_before(op, lb);
    let step = step(ctx, ir, op);
    let factor = AffineExpr::Constant(i64::try_from(factor).unwrap_or(i64::MAX));
    let mut bumps = Vec::new();
    for t in tc.map.results.iter() {
        let bump = t
            .clone()
            .minus(t.clone().modulo(factor.clone()))
            .times(AffineExpr::Constant(step));
        let map = AffineMap {
            num_dims: tc.map.num_dims,
            num_symbols: tc.map.num_symbols,
            results: Box::new([bump]),
        };
        let apply = create_apply(ctx, ir, map, &tc.operands, loc);
        ir.insert_op_before(op, apply);
        bumps.push(apply);
    }
    let n = bumps.len() as u32;
    let map = AffineMap {
        num_dims: 1 + n,
        num_symbols: 0,
        results: (0..n)
            .map(|i| AffineExpr::Dim(0).plus(AffineExpr::Dim(i + 1)))
            .collect(),
    };
    let mut operands = vec![ir.result(lb, 0)];
    operands.extend(bumps.iter().map(|&b| ir.result(b, 0)));
    let (map, operands) = compose_map(ctx, ir, &map, &operands);
    let map = simplify_map(&map);
    let (map, operands) = canonicalize_map(ctx, ir, &map, &operands);
    for apply in bumps.into_iter().chain([lb]) {
        if !ir.has_uses(ir.result(apply, 0)) {
            ir.erase_op(apply);
        }
    }
    Some(Bound { map, operands })
}

/// Splits off a cleanup loop after `op` for the iterations past the last
/// whole unrolled step: a copy of `op` from the cleanup lower bound to the
/// original upper bound, carrying `op`'s results on, while `op` stops at
/// the cleanup lower bound. MLIR's `generateCleanupLoopForUnroll`.
pub(crate) fn generate_cleanup_loop(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    factor: u64,
) -> Result<(), UnrollError> {
    let cleanup = ir.clone_op(op);
    ir.insert_op_after(op, cleanup);
    let results: Vec<ValueId> = ir.results(op).collect();
    let cleanup_results: Vec<ValueId> = ir.results(cleanup).collect();
    let n_control = num_control_operands(ctx, ir, cleanup);
    for (k, (&r, &cr)) in results.iter().zip(&cleanup_results).enumerate() {
        ir.replace_all_uses(r, cr);
        // The cleanup loop starts from the unrolled loop's results (MLIR
        // renames every operand equal to the initial value, bound operands
        // and other iteration arguments with the same initial value
        // included, which changes what the loop computes; only the
        // iteration argument's own operand is renamed here).
        ir.set_operand(cleanup, n_control + k, r);
    }
    let Some(bound) = cleanup_lower_bound(ctx, ir, op, factor) else {
        return Err(UnrollError::NoCleanupLoop);
    };
    set_lower_bound(ctx, ir, cleanup, &bound);
    promote_if_single_iteration(ctx, ir, cleanup);
    set_upper_bound(ctx, ir, op, &bound);
    Ok(())
}

/// Appends `factor - 1` copies of the body of `op` before its terminator,
/// the `i`th with the induction variable mapped by `iv_for(i)` (when the
/// body uses it) and the iteration arguments mapped to what the previous
/// copy yields; the terminator then yields the last copy's values. MLIR's
/// `generateUnrolledLoop`.
fn generate_unrolled_body(ctx: &mut Context, ir: &mut Ir, op: OpId, factor: u64, step: i64) {
    let (Some(block), Some(iv), Some(yield_op)) =
        (body(ir, op), induction_var(ir, op), terminator(ir, op))
    else {
        return;
    };
    let originals: Vec<OpId> = ir.block_ops(block).filter(|&o| o != yield_op).collect();
    let args = iter_args(ir, op);
    let yielded: Vec<ValueId> = ir.operands(yield_op).collect();
    let mut last = yielded.clone();
    let loc = ir.op_loc(op);
    for i in 1..factor {
        let mut map: FxHashMap<ValueId, ValueId> =
            args.iter().copied().zip(last.iter().copied()).collect();
        if ir.has_uses(iv) {
            let offset = i64::try_from(i).unwrap_or(i64::MAX).saturating_mul(step);
            let apply = create_apply(ctx, ir, shift_map(offset), &[iv], loc);
            ir.insert_op_before(yield_op, apply);
            map.insert(iv, ir.result(apply, 0));
        }
        for &o in &originals {
            let copy = clone_mapped(ir, o, &mut map);
            ir.insert_op_before(yield_op, copy);
        }
        for (k, &y) in yielded.iter().enumerate() {
            let defined_in_body = ir
                .defining_op(y)
                .is_some_and(|d| ir.op_block(d) == Some(block));
            if defined_in_body {
                last[k] = map.get(&y).copied().unwrap_or(y);
            }
        }
    }
    ir.set_operands(yield_op, &last);
}

/// Unrolls `op` by `factor` (MLIR's `loopUnrollByFactor`). With
/// `cleanup_unroll`, a loop that would need a cleanup loop (or whose trip
/// count is below the factor) is unrolled fully instead. Success includes
/// the cases with nothing to do (factor 1, an empty body).
pub fn unroll_by_factor(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    factor: u64,
    cleanup_unroll: bool,
) -> Result<(), UnrollError> {
    if factor == 0 {
        return Err(UnrollError::TripCountBelowFactor);
    }
    let trip_count = constant_trip_count(ctx, ir, op);
    let max_trip_count = upper_bound_on_trip_count(ctx, ir, op);
    if factor == 1 {
        if trip_count == Some(1)
            && max_trip_count == Some(1)
            && !promote_if_single_iteration(ctx, ir, op)
        {
            return Err(UnrollError::NotALoop);
        }
        return Ok(());
    }
    let Some(block) = body(ir, op) else {
        return Err(UnrollError::NotALoop);
    };
    if ir.block_ops(block).nth(1).is_none() {
        return Ok(());
    }
    if trip_count.is_some_and(|t| t < factor) {
        if cleanup_unroll {
            return unroll_full(ctx, ir, op);
        }
        return Err(UnrollError::TripCountBelowFactor);
    }
    let ranged = matches!((trip_count, max_trip_count), (Some(a), Some(b)) if a != b);
    if ranged || !largest_divisor_of_trip_count(ctx, ir, op).is_multiple_of(factor) {
        let single = |b: Option<Bound>| b.is_some_and(|b| b.map.results.len() == 1);
        if !single(lower_bound(ctx, ir, op)) || !single(upper_bound(ctx, ir, op)) {
            return Err(UnrollError::NoCleanupLoop);
        }
        if cleanup_unroll {
            return unroll_full(ctx, ir, op);
        }
        generate_cleanup_loop(ctx, ir, op, factor)?;
    }
    let step = step(ctx, ir, op);
    let factor_i = i64::try_from(factor).unwrap_or(i64::MAX);
    set_step(ctx, ir, op, step.saturating_mul(factor_i));
    generate_unrolled_body(ctx, ir, op, factor, step);
    promote_if_single_iteration(ctx, ir, op);
    Ok(())
}

/// Unrolls `op` completely (MLIR's `loopUnrollFull`): its body repeated
/// once per iteration, which needs a constant trip count.
pub fn unroll_full(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), UnrollError> {
    let Some(trip_count) = constant_trip_count(ctx, ir, op) else {
        return Err(UnrollError::UnknownTripCount);
    };
    if trip_count == 0 {
        return Ok(());
    }
    if promote_if_single_iteration(ctx, ir, op) {
        return Ok(());
    }
    unroll_by_factor(ctx, ir, op, trip_count, false)
}

/// Unrolls `op` by `factor`, or by its constant trip count when that is
/// smaller (MLIR's `loopUnrollUpToFactor`).
pub fn unroll_up_to_factor(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    factor: u64,
) -> Result<(), UnrollError> {
    match constant_trip_count(ctx, ir, op) {
        Some(t) if t < factor => unroll_by_factor(ctx, ir, op, t, false),
        _ => unroll_by_factor(ctx, ir, op, factor, false),
    }
}
