//! scf canonicalization patterns, as MLIR's: `scf.for` iteration
//! arguments that are only forwarded (the block argument or the initial
//! value yielded back) or unused are dropped, and loops with constant
//! bounds that never run are replaced by their initial values.

use silica_ir::rewrite::{fold::constant_int, Pattern, Rewriter};
use silica_ir::{BigInt, OpId, OpSpec, ValueId};

/// `scf.for` operands: lower bound, upper bound, step, initial values.
const FIXED_OPERANDS: usize = 3;

fn for_iter_args_folder(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ir = &*rw.ir;
    let Some(region) = ir.regions(op).next() else {
        return false;
    };
    let Some(body) = ir.entry_block(region) else {
        return false;
    };
    let Some(yield_op) = ir.last_op(body) else {
        return false;
    };
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let inits = &operands[FIXED_OPERANDS..];
    let args = ir.block_args(body).to_vec();
    let yielded: Vec<ValueId> = ir.operands(yield_op).collect();
    let results: Vec<ValueId> = ir.results(op).collect();
    if yielded.len() != inits.len() || args.len() != inits.len() + 1 {
        return false;
    }
    let keep: Vec<bool> = (0..inits.len())
        .map(|i| {
            let arg = args[i + 1];
            let forwarded = yielded[i] == arg || yielded[i] == inits[i];
            let unused = !ir.has_uses(results[i]) && !ir.has_uses(arg);
            !(forwarded || unused)
        })
        .collect();
    if keep.iter().all(|&k| k) {
        return false;
    }
    // The new loop: same bounds, the kept initial values, a new body.
    let kept_inits: Vec<ValueId> = inits
        .iter()
        .zip(&keep)
        .filter(|(_, &k)| k)
        .map(|(&v, _)| v)
        .collect();
    let mut new_operands = operands[..FIXED_OPERANDS].to_vec();
    new_operands.extend(&kept_inits);
    let types: Vec<_> = kept_inits.iter().map(|&v| rw.ir.value_type(v)).collect();
    let new_region = rw.ir.create_region();
    let new_body = rw.ir.create_block();
    rw.ir.append_block(new_region, new_body);
    let iv_ty = rw.ir.value_type(args[0]);
    let iv_loc = rw.ir.value_loc(args[0]);
    let new_iv = rw.ir.add_block_arg(new_body, iv_ty, iv_loc);
    let mut replacements = vec![new_iv];
    for (i, &k) in keep.iter().enumerate() {
        if k {
            let ty = rw.ir.value_type(args[i + 1]);
            let loc = rw.ir.value_loc(args[i + 1]);
            replacements.push(rw.ir.add_block_arg(new_body, ty, loc));
        } else {
            replacements.push(inits[i]);
        }
    }
    let name = rw.ir.op_name(op);
    let loc = rw.ir.op_loc(op);
    let attrs = rw.ir.op_attrs(op);
    let props = rw.ir.op_props(op);
    rw.set_insertion_point(op);
    let new_op = rw.create(OpSpec {
        name,
        loc,
        operands: &new_operands,
        result_types: &types,
        successors: &[],
        regions: &[new_region],
        attrs,
        props,
    });
    rw.merge_blocks(body, new_body, &replacements);
    let kept_yield: Vec<ValueId> = yielded
        .iter()
        .zip(&keep)
        .filter(|(_, &k)| k)
        .map(|(&v, _)| v)
        .collect();
    rw.ir.set_operands(yield_op, &kept_yield);
    rw.modified(yield_op);
    let mut new_results = rw.ir.results(new_op);
    let values: Vec<ValueId> = keep
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            if k {
                new_results.next().expect("kept result")
            } else {
                inits[i]
            }
        })
        .collect();
    rw.replace_op(op, &values);
    true
}

fn int_of(rw: &mut Rewriter<'_>, v: ValueId) -> Option<BigInt> {
    constant_int(rw.ctx, rw.ir, v)
}

/// A loop whose constant bounds give no iteration is its initial values.
fn for_zero_trips(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (lb, ub) = (rw.ir.operand(op, 0), rw.ir.operand(op, 1));
    if lb == ub {
        let inits: Vec<ValueId> = rw.ir.operands(op).skip(FIXED_OPERANDS).collect();
        rw.replace_op(op, &inits);
        return true;
    }
    let (Some(l), Some(u)) = (int_of(rw, lb), int_of(rw, ub)) else {
        return false;
    };
    let unsigned = silica_ir::dialect::inherent_attr(rw.ctx, rw.ir, op, "unsignedCmp").is_some();
    let empty = if unsigned {
        let w = rw.ctx.int_width(rw.ir.value_type(lb)).unwrap_or(64);
        let m = BigInt::from(1) << w;
        let norm = |v: &BigInt| ((v % &m) + &m) % &m;
        norm(&l) >= norm(&u)
    } else {
        l >= u
    };
    if !empty {
        return false;
    }
    let inits: Vec<ValueId> = rw.ir.operands(op).skip(FIXED_OPERANDS).collect();
    rw.replace_op(op, &inits);
    true
}

/// `scf.for` patterns.
pub static FOR_PATTERNS: &[Pattern] = &[
    Pattern::new("ForOpIterArgsFolder", for_iter_args_folder),
    Pattern::new("SimplifyTrivialLoops", for_zero_trips),
];

/// The yield ending the single block of `region`, if any.
fn yield_of(ir: &silica_ir::Ir, region: silica_ir::RegionId) -> Option<OpId> {
    let block = ir.entry_block(region)?;
    ir.last_op(block)
}

/// Moves the ops of `region`'s block before `op`; returns the values its
/// yield returned (the yield is erased).
fn inline_region_before(
    rw: &mut Rewriter<'_>,
    region: silica_ir::RegionId,
    op: OpId,
) -> Vec<ValueId> {
    let Some(block) = rw.ir.entry_block(region) else {
        return Vec::new();
    };
    let term = rw.ir.last_op(block);
    let values: Vec<ValueId> = term
        .map(|t| rw.ir.operands(t).collect())
        .unwrap_or_default();
    let ops: Vec<OpId> = rw
        .ir
        .block_ops(block)
        .filter(|&o| Some(o) != term)
        .collect();
    for o in ops {
        rw.move_op_before(o, op);
    }
    values
}

/// `scf.if` on a constant condition is the branch it takes.
fn if_static_condition(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let cond = rw.ir.operand(op, 0);
    let Some(value) = int_of(rw, cond) else {
        return false;
    };
    let regions: Vec<silica_ir::RegionId> = rw.ir.regions(op).collect();
    let taken = if value != BigInt::from(0) {
        regions[0]
    } else {
        regions[1]
    };
    if rw.ir.region_is_empty(taken) {
        rw.erase_op(op);
        return true;
    }
    let values = inline_region_before(rw, taken, op);
    rw.replace_op(op, &values);
    true
}

/// An `scf.if` whose yielded values come from outside becomes `select`s
/// (MLIR's `ConvertTrivialIfToSelect`); values made inside stay results
/// of a smaller `scf.if`.
fn if_to_select(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let n = rw.ir.num_results(op);
    if n == 0 {
        return false;
    }
    let regions: Vec<silica_ir::RegionId> = rw.ir.regions(op).collect();
    let (Some(then_y), Some(else_y)) = (yield_of(rw.ir, regions[0]), yield_of(rw.ir, regions[1]))
    else {
        return false;
    };
    let then_vals: Vec<ValueId> = rw.ir.operands(then_y).collect();
    let else_vals: Vec<ValueId> = rw.ir.operands(else_y).collect();
    let inside = |ir: &silica_ir::Ir, v: ValueId, r: silica_ir::RegionId| {
        ir.value_block(v).and_then(|b| ir.block_region(b)) == Some(r)
    };
    let keep: Vec<bool> = (0..n)
        .map(|i| inside(rw.ir, then_vals[i], regions[0]) || inside(rw.ir, else_vals[i], regions[1]))
        .collect();
    if keep.iter().all(|&k| k) {
        return false;
    }
    let cond = rw.ir.operand(op, 0);
    let loc = rw.ir.op_loc(op);
    let kept_types: Vec<_> = (0..n)
        .filter(|&i| keep[i])
        .map(|i| rw.ir.value_type(rw.ir.result(op, i)))
        .collect();
    let new_regions = vec![rw.ir.create_region(), rw.ir.create_region()];
    for (old, &new) in regions.iter().zip(&new_regions) {
        let blocks: Vec<_> = rw.ir.region_blocks(*old).collect();
        for b in blocks {
            rw.ir.detach_block(b);
            rw.ir.append_block(new, b);
        }
    }
    let name = rw.ir.op_name(op);
    let attrs = rw.ir.op_attrs(op);
    let props = rw.ir.op_props(op);
    rw.set_insertion_point(op);
    let replacement = rw.create(OpSpec {
        name,
        loc,
        operands: &[cond],
        result_types: &kept_types,
        successors: &[],
        regions: &new_regions,
        attrs,
        props,
    });
    rw.set_insertion_point(replacement);
    let mut results = Vec::with_capacity(n);
    let mut next = 0;
    let (mut then_kept, mut else_kept) = (Vec::new(), Vec::new());
    for i in 0..n {
        let (t, f) = (then_vals[i], else_vals[i]);
        if keep[i] {
            results.push(rw.ir.result(replacement, next));
            next += 1;
            then_kept.push(t);
            else_kept.push(f);
        } else if t == f {
            results.push(t);
        } else {
            let ty = rw.ir.value_type(t);
            let s = rw.create_simple("arith.select", &[cond, t, f], &[ty], None, loc);
            results.push(rw.ir.result(s, 0));
        }
    }
    rw.ir.set_operands(then_y, &then_kept);
    rw.ir.set_operands(else_y, &else_kept);
    rw.replace_op(op, &results);
    true
}

/// `scf.if` patterns.
pub static IF_PATTERNS: &[Pattern] = &[
    Pattern::new("ConvertTrivialIfToSelect", if_to_select),
    Pattern::new("RemoveStaticCondition", if_static_condition),
];
