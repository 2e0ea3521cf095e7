//! Unroll-and-jam of `affine.for` as MLIR's loop utilities do it: the
//! loop is unrolled by a factor and the copies are fused ("jammed") into
//! the loops it contains. The body is cut into maximal runs of ops that
//! hold no `affine.for` (sub-blocks, found in the loop and every loop
//! nested in it); after each run come its copies for iterations `iv +
//! step`, `iv + 2 * step`, ...; loops with iteration arguments get one set
//! per copy, and the copies of a reduction carried by the jammed loop are
//! combined after it. Whether that preserves the program's meaning is the
//! caller's business: as in MLIR, no dependence is checked.

use super::build::{
    clone_mapped, create, create_apply, create_op, inits, iter_args, loops_post_order, lower_bound,
    num_control_operands, set_step, shift_map, terminator, upper_bound, NewOp,
};
use super::promote::promote_if_single_iteration;
use super::reduction::supported_reductions;
use super::trip_count::{constant_trip_count, largest_divisor_of_trip_count};
use super::unroll::{generate_cleanup_loop, UnrollError};
use crate::for_op::{body, induction_var, is_for, step, Bound};
use rustc_hash::FxHashMap;
use silica_ir::{Context, Ir, OpId, ValueId};

/// Whether every bound operand of `op` and of the loops in it is defined
/// outside `op`.
fn inner_bounds_invariant(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    loops_post_order(ctx, ir, op).into_iter().all(|l| {
        let n = num_control_operands(ctx, ir, l);
        ir.operands(l).take(n).all(|v| {
            let def_op = match ir.defining_op(v) {
                Some(d) => Some(d),
                None => ir
                    .value_block(v)
                    .and_then(|b| ir.block_region(b))
                    .and_then(|r| ir.region_op(r)),
            };
            !def_op.is_some_and(|d| ir.is_ancestor(op, d))
        })
    })
}

/// The maximal runs (first op, last op) of non-`affine.for` ops in the
/// bodies of `op` and of the loops nested in it, terminators left out.
/// MLIR's `JamBlockGatherer`.
fn jam_sub_blocks(ctx: &Context, ir: &Ir, op: OpId) -> Vec<(OpId, OpId)> {
    let mut out = Vec::new();
    // Runs come out in MLIR's order: a loop's runs before and after each
    // nested loop, the nested loop's own runs in between.
    let mut work: Vec<Work> = vec![Work::Loop(op)];
    while let Some(w) = work.pop() {
        match w {
            Work::Run(first, last) => out.push((first, last)),
            Work::Loop(l) => {
                let mut items = Vec::new();
                for r in ir.regions(l) {
                    for b in ir.region_blocks(r) {
                        let ops: Vec<OpId> = ir.block_ops(b).collect();
                        let Some((_, ops)) = ops.split_last() else {
                            continue;
                        };
                        let mut i = 0;
                        while i < ops.len() {
                            let start = i;
                            while i < ops.len() && !is_for(ctx, ir, ops[i]) {
                                i += 1;
                            }
                            if i > start {
                                items.push(Work::Run(ops[start], ops[i - 1]));
                            }
                            while i < ops.len() && is_for(ctx, ir, ops[i]) {
                                items.push(Work::Loop(ops[i]));
                                i += 1;
                            }
                        }
                    }
                }
                work.extend(items.into_iter().rev());
            }
        }
    }
    out
}

enum Work {
    Run(OpId, OpId),
    Loop(OpId),
}

/// Replaces the loop `op` by one with the initial values `extra_inits`
/// appended to its iteration arguments and `extra_yields` to what its body
/// yields; the body moves over and `op`'s results become the new loop's
/// first ones. MLIR's `AffineForOp::replaceWithAdditionalYields`.
pub fn add_iter_args(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    extra_inits: &[ValueId],
    extra_yields: &[ValueId],
) -> Option<OpId> {
    let lower = lower_bound(ctx, ir, op)?;
    let upper = upper_bound(ctx, ir, op)?;
    let block = body(ir, op)?;
    let yield_op = terminator(ir, op)?;
    let mut operands = lower.operands.clone();
    operands.extend(&upper.operands);
    operands.extend(inits(ctx, ir, op));
    operands.extend(extra_inits);
    let mut types: Vec<_> = ir.results(op).map(|v| ir.value_type(v)).collect();
    types.extend(extra_inits.iter().map(|&v| ir.value_type(v)));
    let n_inits = operands.len() - lower.operands.len() - upper.operands.len();
    let sizes = [lower.operands.len(), upper.operands.len(), n_inits].map(|n| n as i64);
    let segments = ctx.int_array_attr(32, &sizes);
    let lb = ctx.intern_attr(silica_ir::AttrKind::AffineMap(lower.map));
    let ub = ctx.intern_attr(silica_ir::AttrKind::AffineMap(upper.map));
    let index = ctx.index_type();
    let step = ctx.int_attr(index, step(ctx, ir, op));
    let loc = ir.op_loc(op);
    let props = vec![
        ("lowerBoundMap", lb),
        ("operandSegmentSizes", segments),
        ("step", step),
        ("upperBoundMap", ub),
    ];
    let region = ir.create_region();
    let rebuilt = create_op(
        ctx,
        ir,
        NewOp {
            name: "affine.for",
            operands: &operands,
            result_types: &types,
            regions: &[region],
            props,
            loc,
        },
    );
    ir.detach_block(block);
    ir.append_block(region, block);
    for &v in extra_inits {
        let ty = ir.value_type(v);
        ir.add_block_arg(block, ty, Some(loc));
    }
    let mut yields: Vec<ValueId> = ir.operands(yield_op).collect();
    yields.extend(extra_yields);
    ir.set_operands(yield_op, &yields);
    ir.insert_op_before(op, rebuilt);
    let old: Vec<ValueId> = ir.results(op).collect();
    for (k, r) in old.into_iter().enumerate() {
        let nr = ir.result(rebuilt, k);
        ir.replace_all_uses(r, nr);
    }
    ir.erase_op(op);
    Some(rebuilt)
}

/// Unroll-and-jams `op` by `factor` (MLIR's `loopUnrollJamByFactor`).
/// Refused when the constant trip count is below the factor, when a bound
/// of a loop inside depends on `op`, or when a cleanup loop is needed and a
/// bound has several results.
pub fn unroll_jam_by_factor(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    factor: u64,
) -> Result<(), UnrollError> {
    if factor == 0 {
        return Err(UnrollError::TripCountBelowFactor);
    }
    let trip_count = constant_trip_count(ctx, ir, op);
    if factor == 1 {
        if trip_count == Some(1) && !promote_if_single_iteration(ctx, ir, op) {
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
        return Err(UnrollError::TripCountBelowFactor);
    }
    if !inner_bounds_invariant(ctx, ir, op) {
        return Err(UnrollError::VariantInnerBounds);
    }
    let sub_blocks = jam_sub_blocks(ctx, ir, op);
    let loops_with_iter_args: Vec<OpId> = loops_post_order(ctx, ir, op)
        .into_iter()
        .filter(|&l| !inits(ctx, ir, l).is_empty())
        .collect();
    let reductions = supported_reductions(ctx, ir, op);
    if !largest_divisor_of_trip_count(ctx, ir, op).is_multiple_of(factor) {
        let single = |b: Option<Bound>| b.is_some_and(|b| b.map.results.len() == 1);
        if !single(lower_bound(ctx, ir, op)) || !single(upper_bound(ctx, ir, op)) {
            return Err(UnrollError::NoCleanupLoop);
        }
        generate_cleanup_loop(ctx, ir, op, factor)?;
    }
    let copies = usize::try_from(factor - 1).unwrap_or(usize::MAX);
    // maps[i - 1] renames values for the copy of iteration `iv + i * step`.
    let mut maps: Vec<FxHashMap<ValueId, ValueId>> = vec![FxHashMap::default(); copies];
    let mut op = op;
    let mut new_loops = Vec::new();
    for old in loops_with_iter_args {
        let old_inits = inits(ctx, ir, old);
        let n = old_inits.len();
        let Some(yield_op) = terminator(ir, old) else {
            continue;
        };
        let old_yields: Vec<ValueId> = ir.operands(yield_op).collect();
        let extra_inits: Vec<ValueId> = (0..copies)
            .flat_map(|_| old_inits.iter().copied())
            .collect();
        let extra_yields: Vec<ValueId> = (0..copies)
            .flat_map(|_| old_yields.iter().copied())
            .collect();
        let Some(new) = add_iter_args(ctx, ir, old, &extra_inits, &extra_yields) else {
            continue;
        };
        if old == op {
            op = new;
        }
        new_loops.push(new);
        let args = iter_args(ir, new);
        let results: Vec<ValueId> = ir.results(new).collect();
        for (i, map) in maps.iter_mut().enumerate() {
            let set = i + 1;
            for j in 0..n {
                map.insert(args[j], args[set * n + j]);
                map.insert(results[j], results[set * n + j]);
            }
        }
    }
    let step = step(ctx, ir, op);
    let factor_i = i64::try_from(factor).unwrap_or(i64::MAX);
    set_step(ctx, ir, op, step.saturating_mul(factor_i));
    let Some(iv) = induction_var(ir, op) else {
        return Err(UnrollError::NotALoop);
    };
    let loc = ir.op_loc(op);
    for i in (1..=copies).rev() {
        let map = &mut maps[i - 1];
        for &(first, last) in &sub_blocks {
            let originals: Vec<OpId> = {
                let mut v = vec![first];
                let mut cur = first;
                while cur != last {
                    match ir.next_op(cur) {
                        Some(n) => {
                            v.push(n);
                            cur = n;
                        }
                        None => break,
                    }
                }
                v
            };
            let mut at = last;
            if ir.has_uses(iv) {
                let offset = i64::try_from(i).unwrap_or(i64::MAX).saturating_mul(step);
                let apply = create_apply(ctx, ir, shift_map(offset), &[iv], loc);
                ir.insert_op_after(at, apply);
                at = apply;
                map.insert(iv, ir.result(apply, 0));
            }
            for o in originals {
                let copy = clone_mapped(ir, o, map);
                ir.insert_op_after(at, copy);
                at = copy;
            }
        }
        for &l in &new_loops {
            let n_control = num_control_operands(ctx, ir, l);
            let n = inits(ctx, ir, l).len() / usize::try_from(factor).unwrap_or(1);
            let Some(yield_op) = terminator(ir, l) else {
                continue;
            };
            for j in 0..n {
                let init = ir.operand(l, n_control + j);
                ir.set_operand(l, n_control + i * n + j, *map.get(&init).unwrap_or(&init));
                let y = ir.operand(yield_op, j);
                ir.set_operand(yield_op, i * n + j, *map.get(&y).unwrap_or(&y));
            }
        }
    }
    combine_reductions(ctx, ir, op, factor, &reductions);
    promote_if_single_iteration(ctx, ir, op);
    Ok(())
}

/// After the jammed loop `op`, combines each reduction's copies (results
/// `pos`, `n + pos`, ...) into one value with the reduction's combiner,
/// which then replaces the first copy's result.
fn combine_reductions(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    factor: u64,
    reductions: &[super::reduction::LoopReduction],
) {
    let total = ir.num_results(op);
    if total == 0 {
        return;
    }
    let n = total / usize::try_from(factor).unwrap_or(1).max(1);
    let loc = ir.op_loc(op);
    let mut at = op;
    for r in reductions {
        let first = ir.result(op, r.position);
        let mut lhs = first;
        let mut created = Vec::new();
        for i in (1..usize::try_from(factor).unwrap_or(1)).rev() {
            let rhs = ir.result(op, i * n + r.position);
            let ty = ir.value_type(lhs);
            let c = create(ctx, ir, r.combiner, &[lhs, rhs], &[ty], vec![], loc);
            ir.insert_op_after(at, c);
            at = c;
            created.push(c);
            lhs = ir.result(c, 0);
        }
        let uses: Vec<_> = ir
            .uses(first)
            .filter(|&u| !created.contains(&ir.use_owner(u)))
            .collect();
        for u in uses {
            ir.set_use(u, lhs);
        }
    }
}
