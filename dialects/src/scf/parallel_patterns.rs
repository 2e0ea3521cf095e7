//! `scf.parallel` canonicalizations, as MLIR's: a dimension with no
//! iteration makes the loop its initial values; dimensions with one
//! iteration are dropped (their induction variable is the lower bound),
//! and with none left the body and the reductions run once in place; a
//! loop whose body is only another parallel loop over independent bounds
//! merges with it.

use silica_ir::rewrite::{Pattern, Rewriter};
use silica_ir::{BlockId, Context, Ir, OpId, OpSpec, RegionId, ValueId};

/// A loop's lower bounds, upper bounds, steps and initial values.
struct Parts {
    lbs: Vec<ValueId>,
    ubs: Vec<ValueId>,
    steps: Vec<ValueId>,
    inits: Vec<ValueId>,
}

fn parts(ctx: &Context, ir: &Ir, op: OpId) -> Option<Parts> {
    let sizes = silica_ir::format::segment_sizes(ctx, ir, op)?;
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let n = *sizes.first()?;
    let inits_len = *sizes.get(3)?;
    if operands.len() != 3 * n + inits_len {
        return None;
    }
    Some(Parts {
        lbs: operands[..n].to_vec(),
        ubs: operands[n..2 * n].to_vec(),
        steps: operands[2 * n..3 * n].to_vec(),
        inits: operands[3 * n..].to_vec(),
    })
}

fn body(ir: &Ir, op: OpId) -> Option<(RegionId, BlockId)> {
    let r = ir.regions(op).next()?;
    Some((r, ir.entry_block(r)?))
}

/// Creates an `scf.parallel` before `at` over the given bounds, with
/// `region` as its body.
fn create_parallel(rw: &mut Rewriter<'_>, at: OpId, p: &Parts, region: RegionId) -> OpId {
    let mut operands = p.lbs.clone();
    operands.extend(&p.ubs);
    operands.extend(&p.steps);
    operands.extend(&p.inits);
    let types: Vec<_> = p.inits.iter().map(|&v| rw.ir.value_type(v)).collect();
    let n = p.lbs.len() as i64;
    let seg = rw.ctx.int_array_attr(32, &[n, n, n, p.inits.len() as i64]);
    let key = rw.ctx.sym(silica_ir::format::SEGMENTS);
    let props = rw.ctx.dict_attr(vec![(key, seg)]);
    let (name, loc, attrs) = (rw.ir.op_name(at), rw.ir.op_loc(at), rw.ir.op_attrs(at));
    rw.set_insertion_point(at);
    rw.create(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &types,
        successors: &[],
        regions: &[region],
        attrs,
        props: Some(props),
    })
}

/// Moves the ops of `block` but its terminator before `at`.
fn move_before(rw: &mut Rewriter<'_>, block: BlockId, at: OpId) {
    let ops: Vec<OpId> = rw.ir.block_ops(block).collect();
    for &o in &ops[..ops.len().saturating_sub(1)] {
        rw.move_op_before(o, at);
    }
}

/// MLIR's `ParallelOpSingleOrZeroIterationDimsFolder`.
fn single_or_zero_iterations(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(p) = parts(rw.ctx, rw.ir, op) else {
        return false;
    };
    let Some((_, block)) = body(rw.ir, op) else {
        return false;
    };
    let ivs = rw.ir.block_args(block).to_vec();
    let mut kept = Parts {
        lbs: Vec::new(),
        ubs: Vec::new(),
        steps: Vec::new(),
        inits: p.inits.clone(),
    };
    let mut single = Vec::new();
    for i in 0..p.lbs.len() {
        match crate::scf::region_branch::constant_trip_count(
            rw.ctx, rw.ir, p.lbs[i], p.ubs[i], p.steps[i],
        ) {
            Some(0) => {
                rw.replace_op(op, &p.inits);
                return true;
            }
            Some(1) => single.push(i),
            _ => {
                kept.lbs.push(p.lbs[i]);
                kept.ubs.push(p.ubs[i]);
                kept.steps.push(p.steps[i]);
            }
        }
    }
    if single.is_empty() {
        return false;
    }
    for &i in &single {
        rw.replace_all_uses(ivs[i], p.lbs[i]);
    }
    if kept.lbs.is_empty() {
        // One iteration: the body, then each reduction of the initial
        // value with the body's value, in place.
        let Some(reduce) = rw.ir.last_op(block) else {
            return false;
        };
        let reduced: Vec<ValueId> = rw.ir.operands(reduce).collect();
        move_before(rw, block, op);
        let mut results = Vec::new();
        let regions: Vec<RegionId> = rw.ir.regions(reduce).collect();
        for (i, r) in regions.into_iter().enumerate() {
            let Some(b) = rw.ir.entry_block(r) else {
                return true;
            };
            let args = rw.ir.block_args(b).to_vec();
            if let [lhs, rhs] = args[..] {
                rw.replace_all_uses(lhs, p.inits[i]);
                rw.replace_all_uses(rhs, reduced[i]);
            }
            let ret = rw.ir.last_op(b);
            results.push(ret.map_or(p.inits[i], |t| rw.ir.operand(t, 0)));
            move_before(rw, b, op);
        }
        rw.replace_op(op, &results);
        return true;
    }
    for &i in single.iter().rev() {
        rw.ir.erase_block_arg(block, i);
    }
    let new_region = rw.ir.create_region();
    rw.ir.detach_block(block);
    rw.ir.append_block(new_region, block);
    let new = create_parallel(rw, op, &kept, new_region);
    let results: Vec<ValueId> = rw.ir.results(new).collect();
    rw.replace_op(op, &results);
    true
}

/// MLIR's `MergeNestedParallelLoops`: an outer loop whose body is only an
/// inner loop whose bounds do not use the outer induction variables, both
/// without reductions, becomes one loop over both sets of dimensions.
fn merge_nested(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (ctx, ir) = (&*rw.ctx, &*rw.ir);
    let (Some(outer), Some((_, outer_body))) = (parts(ctx, ir, op), body(ir, op)) else {
        return false;
    };
    let Some(inner) = ir.first_op(outer_body) else {
        return false;
    };
    let only_inner = ir
        .next_op(inner)
        .is_some_and(|t| ir.next_op(t).is_none() && ir.num_operands(t) == 0);
    if !only_inner || ir.op_name(inner) != ir.op_name(op) {
        return false;
    }
    let (Some(inner_parts), Some((_, inner_body))) = (parts(ctx, ir, inner), body(ir, inner))
    else {
        return false;
    };
    let outer_ivs = ir.block_args(outer_body).to_vec();
    let bounds = inner_parts
        .lbs
        .iter()
        .chain(&inner_parts.ubs)
        .chain(&inner_parts.steps);
    if bounds.clone().any(|v| outer_ivs.contains(v))
        || !outer.inits.is_empty()
        || !inner_parts.inits.is_empty()
    {
        return false;
    }
    let merged = Parts {
        lbs: [outer.lbs, inner_parts.lbs].concat(),
        ubs: [outer.ubs, inner_parts.ubs].concat(),
        steps: [outer.steps, inner_parts.steps].concat(),
        inits: Vec::new(),
    };
    // The inner body becomes the merged body, taking the outer induction
    // variables as its first arguments.
    let index = rw.ctx.index_type();
    let inner_ivs = rw.ir.block_args(inner_body).to_vec();
    let new_block = rw.ir.create_block();
    let mut new_ivs = Vec::new();
    for _ in 0..outer_ivs.len() + inner_ivs.len() {
        new_ivs.push(rw.ir.add_block_arg(new_block, index, None));
    }
    for (old, &new) in outer_ivs.iter().chain(&inner_ivs).zip(&new_ivs) {
        rw.replace_all_uses(*old, new);
    }
    let ops: Vec<OpId> = rw.ir.block_ops(inner_body).collect();
    for o in ops {
        rw.ir.detach_op(o);
        rw.ir.append_op(new_block, o);
        rw.modified(o);
    }
    let region = rw.ir.create_region();
    rw.ir.append_block(region, new_block);
    create_parallel(rw, op, &merged, region);
    rw.erase_op(op);
    true
}

/// `scf.parallel` patterns.
pub static PARALLEL_PATTERNS: &[Pattern] = &[
    Pattern::new(
        "ParallelOpSingleOrZeroIterationDimsFolder",
        single_or_zero_iterations,
    ),
    Pattern::new("MergeNestedParallelLoops", merge_nested),
];
