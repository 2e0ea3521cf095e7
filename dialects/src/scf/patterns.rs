//! scf canonicalization patterns, as MLIR's: the region-branch patterns
//! shared by `scf.for`, `scf.while`, `scf.if`, `scf.index_switch` and
//! `scf.execute_region` (values only ever forwarded from outside replace
//! their results and arguments, unused ones are dropped), loops with
//! constant bounds that never run replaced by their initial values,
//! static and select-like `scf.if`s, and `scf.while` conditions aligned
//! with the before region's arguments.

use silica_ir::rewrite::{fold::constant_int, Pattern, Rewriter};
use silica_ir::{BigInt, OpId, OpSpec, ValueId};

/// `scf.for` operands: lower bound, upper bound, step, initial values.
const FIXED_OPERANDS: usize = 3;

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

const MAKE_INPUTS_DEAD: Pattern = Pattern::new(
    "MakeRegionBranchOpSuccessorInputsDead",
    crate::region_branch_patterns::make_inputs_dead,
);
const REMOVE_DEAD_INPUTS: Pattern = Pattern::new(
    "RemoveDeadRegionBranchOpSuccessorInputs",
    crate::region_branch_patterns::remove_dead_inputs,
);
const REMOVE_DUPLICATE_INPUTS: Pattern = Pattern::new(
    "RemoveDuplicateSuccessorInputUses",
    crate::region_branch_patterns::remove_duplicate_inputs,
);

/// `scf.for` patterns.
pub static FOR_PATTERNS: &[Pattern] = &[
    Pattern::new("SimplifyTrivialLoops", for_zero_trips),
    MAKE_INPUTS_DEAD,
    REMOVE_DEAD_INPUTS,
    REMOVE_DUPLICATE_INPUTS,
];

/// The patterns of the `scf` region ops without op-specific ones.
pub static REGION_BRANCH_PATTERNS: &[Pattern] = &[
    MAKE_INPUTS_DEAD,
    REMOVE_DEAD_INPUTS,
    REMOVE_DUPLICATE_INPUTS,
];

/// `scf.while` patterns.
pub static WHILE_PATTERNS: &[Pattern] = &[
    MAKE_INPUTS_DEAD,
    REMOVE_DEAD_INPUTS,
    REMOVE_DUPLICATE_INPUTS,
    Pattern::new("WhileOpAlignBeforeArgs", while_align_before_args),
];

/// Where each of `a`'s values is in `b` (`b[p] == a[mapping[p]]`), when
/// `b` holds exactly `a`'s values.
fn args_mapping(a: &[ValueId], b: &[ValueId]) -> Option<Vec<usize>> {
    if a.len() != b.len() {
        return None;
    }
    let mut mapping = vec![0; a.len()];
    for (i, v) in a.iter().enumerate() {
        let p = b.iter().position(|x| x == v)?;
        mapping[p] = i;
    }
    Some(mapping)
}

/// When `scf.condition` passes the before region's arguments in another
/// order, reorders it (and the after arguments and results) to theirs.
fn while_align_before_args(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ir = &*rw.ir;
    let regions: Vec<_> = ir.regions(op).collect();
    let (Some(before), Some(after)) = (
        regions.first().and_then(|&r| ir.entry_block(r)),
        regions.get(1).and_then(|&r| ir.entry_block(r)),
    ) else {
        return false;
    };
    let Some(cond) = ir.last_op(before) else {
        return false;
    };
    let before_args = ir.block_args(before).to_vec();
    let term_args: Vec<ValueId> = ir.operands(cond).skip(1).collect();
    if before_args == term_args {
        return false;
    }
    let mut unique = term_args.clone();
    unique.sort_unstable();
    unique.dedup();
    if unique.len() != term_args.len() {
        return false;
    }
    let Some(mapping) = args_mapping(&before_args, &term_args) else {
        return false;
    };
    let condition = ir.operand(cond, 0);
    let mut operands = vec![condition];
    operands.extend(&before_args);
    let (cond_name, cond_loc) = (ir.op_name(cond), ir.op_loc(cond));
    let results: Vec<ValueId> = ir.results(op).collect();
    let mut types = vec![ir.value_type(results[0]); results.len()];
    for (i, &j) in mapping.iter().enumerate() {
        types[j] = ir.value_type(results[i]);
    }
    let inits: Vec<ValueId> = ir.operands(op).collect();
    let (name, loc, attrs, props) = (
        ir.op_name(op),
        ir.op_loc(op),
        ir.op_attrs(op),
        ir.op_props(op),
    );
    rw.set_insertion_point(cond);
    let empty = rw.ctx.empty_dict();
    rw.create(OpSpec {
        name: cond_name,
        loc: cond_loc,
        operands: &operands,
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs: empty,
        props: None,
    });
    rw.erase_op(cond);
    let new_regions = rw.ir.create_regions(2);
    let new_before = rw.ir.create_block();
    rw.ir.append_block(new_regions[0], new_before);
    for &a in &before_args {
        let (ty, l) = (rw.ir.value_type(a), rw.ir.value_loc(a));
        rw.ir.add_block_arg(new_before, ty, l);
    }
    let new_after = rw.ir.create_block();
    rw.ir.append_block(new_regions[1], new_after);
    for &t in &types {
        rw.ir.add_block_arg(new_after, t, None);
    }
    rw.set_insertion_point(op);
    let new_op = rw.create(OpSpec {
        name,
        loc,
        operands: &inits,
        result_types: &types,
        successors: &[],
        regions: &new_regions,
        attrs,
        props,
    });
    let new_before_args = rw.ir.block_args(new_before).to_vec();
    let new_after_args = rw.ir.block_args(new_after).to_vec();
    let after_args: Vec<ValueId> = mapping.iter().map(|&j| new_after_args[j]).collect();
    let new_results: Vec<ValueId> = mapping.iter().map(|&j| rw.ir.result(new_op, j)).collect();
    rw.merge_blocks(before, new_before, &new_before_args);
    rw.merge_blocks(after, new_after, &after_args);
    rw.replace_op(op, &new_results);
    true
}

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

/// `scf.index_switch` on a constant is the case it takes (MLIR's
/// `FoldConstantCase`).
fn index_switch_constant(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let arg = rw.ir.operand(op, 0);
    let Some(value) = int_of(rw, arg) else {
        return false;
    };
    let cases = silica_ir::dialect::inherent_attr(rw.ctx, rw.ir, op, "cases")
        .and_then(|a| rw.ctx.int_array_values(a))
        .unwrap_or_default();
    let regions: Vec<silica_ir::RegionId> = rw.ir.regions(op).collect();
    // Region 0 is the default, the cases follow in order.
    let taken = cases
        .iter()
        .position(|&c| BigInt::from(c) == value)
        .map_or(regions[0], |i| regions[i + 1]);
    let values = inline_region_before(rw, taken, op);
    rw.replace_op(op, &values);
    true
}

/// `scf.index_switch` patterns.
pub static INDEX_SWITCH_PATTERNS: &[Pattern] = &[
    Pattern::new("FoldConstantCase", index_switch_constant),
    MAKE_INPUTS_DEAD,
    REMOVE_DEAD_INPUTS,
    REMOVE_DUPLICATE_INPUTS,
];

/// An `scf.if` (or `affine.if`) without results and with an else region
/// that only yields loses the else region (MLIR's `RemoveEmptyElseBranch`
/// and `SimplifyDeadElse`).
pub fn if_empty_else(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    if rw.ir.num_results(op) != 0 {
        return false;
    }
    let Some(&else_region) = rw.ir.regions(op).collect::<Vec<_>>().get(1) else {
        return false;
    };
    let Some(block) = rw.ir.entry_block(else_region) else {
        return false;
    };
    let only_yield = rw
        .ir
        .first_op(block)
        .is_some_and(|o| rw.ir.next_op(o).is_none());
    if !only_yield {
        return false;
    }
    rw.erase_block(block);
    rw.modified(op);
    true
}

/// Uses of an `scf.if`'s condition inside its branches become `true` in
/// the then branch and `false` in the else branch (MLIR's
/// `ConditionPropagation`).
fn if_condition_propagation(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let cond = rw.ir.operand(op, 0);
    if int_of(rw, cond).is_some() {
        return false;
    }
    let regions: Vec<silica_ir::RegionId> = rw.ir.regions(op).collect();
    // Constants are made in use-list order (the latest use first), as
    // MLIR makes them.
    let mut users: Vec<OpId> = rw.ir.uses(cond).map(|u| rw.ir.use_owner(u)).collect();
    users.dedup();
    let mut constants: [Option<ValueId>; 2] = [None, None];
    let mut changed = false;
    for user in users {
        let Some(branch) = regions.iter().position(|&r| rw.ir.is_in_region(user, r)) else {
            continue;
        };
        let c = match constants[branch] {
            Some(c) => c,
            None => {
                let i1 = rw.ctx.signless(1);
                let value = rw.ctx.int_attr(i1, if branch == 0 { -1 } else { 0 });
                let loc = rw.ir.op_loc(op);
                rw.set_insertion_point(op);
                let Some(made) = crate::arith::materialize_constant(rw, value, i1, loc) else {
                    return changed;
                };
                let c = rw.ir.result(made, 0);
                constants[branch] = Some(c);
                c
            }
        };
        let indices: Vec<usize> = rw
            .ir
            .operands(user)
            .enumerate()
            .filter(|&(_, v)| v == cond)
            .map(|(k, _)| k)
            .collect();
        for k in indices {
            rw.set_operand(user, k, c);
        }
        changed = true;
    }
    changed
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

/// The block of `region` if it holds only its terminator.
fn only_terminator(ir: &silica_ir::Ir, region: silica_ir::RegionId) -> Option<silica_ir::BlockId> {
    let block = ir.entry_block(region)?;
    let first = ir.first_op(block)?;
    ir.next_op(first).is_none().then_some(block)
}

/// An `scf.if` whose then branch is only another `scf.if` (and whose else
/// branches only yield) becomes one `scf.if` on both conditions, with
/// `select`s for values the outer then branch yields from outside (MLIR's
/// `CombineNestedIfs`).
fn if_combine_nested(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let regions: Vec<silica_ir::RegionId> = rw.ir.regions(op).collect();
    let Some(then_block) = rw.ir.entry_block(regions[0]) else {
        return false;
    };
    let Some(nested) = rw.ir.first_op(then_block) else {
        return false;
    };
    let Some(then_yield) = rw.ir.next_op(nested) else {
        return false;
    };
    if rw.ir.next_op(then_yield).is_some() || rw.ctx.str(rw.ir.op_name(nested)) != "scf.if" {
        return false;
    }
    let has_else = !rw.ir.region_is_empty(regions[1]);
    if has_else && only_terminator(rw.ir, regions[1]).is_none() {
        return false;
    }
    let nested_regions: Vec<silica_ir::RegionId> = rw.ir.regions(nested).collect();
    let nested_has_else = !rw.ir.region_is_empty(nested_regions[1]);
    if nested_has_else && only_terminator(rw.ir, nested_regions[1]).is_none() {
        return false;
    }
    let mut then_vals: Vec<ValueId> = rw.ir.operands(then_yield).collect();
    let else_vals: Vec<ValueId> = if has_else {
        yield_of(rw.ir, regions[1]).map_or_else(Vec::new, |y| rw.ir.operands(y).collect())
    } else {
        Vec::new()
    };
    let nested_then: Vec<ValueId> =
        yield_of(rw.ir, nested_regions[0]).map_or_else(Vec::new, |y| rw.ir.operands(y).collect());
    let nested_else: Vec<ValueId> = if nested_has_else {
        yield_of(rw.ir, nested_regions[1]).map_or_else(Vec::new, |y| rw.ir.operands(y).collect())
    } else {
        Vec::new()
    };
    let mut to_select = Vec::new();
    for (i, slot) in then_vals.iter_mut().enumerate() {
        let v = *slot;
        if rw.ir.defining_op(v) == Some(nested) {
            let k = (0..rw.ir.num_results(nested))
                .find(|&k| rw.ir.result(nested, k) == v)
                .unwrap_or(0);
            if nested_else.get(k) != else_vals.get(i) {
                return false;
            }
            *slot = nested_then[k];
            continue;
        }
        if rw.ir.value_block(v).and_then(|b| rw.ir.block_region(b)) == Some(regions[0]) {
            return false;
        }
        to_select.push(i);
    }
    let loc = rw.ir.op_loc(op);
    let (outer_cond, inner_cond) = (rw.ir.operand(op, 0), rw.ir.operand(nested, 0));
    rw.set_insertion_point(op);
    let i1 = rw.ir.value_type(outer_cond);
    let and = rw.create_simple("arith.andi", &[outer_cond, inner_cond], &[i1], None, loc);
    let cond = rw.ir.result(and, 0);
    let result_types: Vec<_> = rw.ir.results(op).map(|r| rw.ir.value_type(r)).collect();
    let new_regions = vec![rw.ir.create_region(), rw.ir.create_region()];
    // The inner then block, with the outer then values yielded.
    let Some(inner_block) = rw.ir.entry_block(nested_regions[0]) else {
        return false;
    };
    rw.ir.detach_block(inner_block);
    rw.ir.append_block(new_regions[0], inner_block);
    if let Some(y) = rw.ir.last_op(inner_block) {
        rw.ir.set_operands(y, &then_vals);
    }
    if !else_vals.is_empty() {
        let block = rw.ir.create_block();
        rw.ir.append_block(new_regions[1], block);
        rw.set_insertion_point_to_end(block);
        rw.create_simple("scf.yield", &else_vals, &[], None, loc);
    }
    rw.set_insertion_point(op);
    let name = rw.ctx.sym("scf.if");
    let attrs = rw.ctx.empty_dict();
    let new_if = rw.create(OpSpec {
        name,
        loc,
        operands: &[cond],
        result_types: &result_types,
        successors: &[],
        regions: &new_regions,
        attrs,
        props: None,
    });
    let mut results: Vec<ValueId> = rw.ir.results(new_if).collect();
    rw.set_insertion_point(new_if);
    for i in to_select {
        let ty = rw.ir.value_type(then_vals[i]);
        let s = rw.create_simple(
            "arith.select",
            &[outer_cond, then_vals[i], else_vals[i]],
            &[ty],
            None,
            loc,
        );
        results[i] = rw.ir.result(s, 0);
    }
    rw.replace_op(op, &results);
    true
}

/// Whether `v` is `xori(c, true)`.
fn is_negation_of(rw: &mut Rewriter<'_>, v: ValueId, c: ValueId) -> bool {
    let Some(x) = rw.ir.defining_op(v) else {
        return false;
    };
    if rw.ctx.str(rw.ir.op_name(x)) != "arith.xori" || rw.ir.operand(x, 0) != c {
        return false;
    }
    let one = rw.ir.operand(x, 1);
    int_of(rw, one).is_some_and(|k| k != BigInt::from(0))
}

/// Moves the blocks of `from` to the end of `to`.
fn move_blocks(ir: &mut silica_ir::Ir, from: silica_ir::RegionId, to: silica_ir::RegionId) {
    let blocks: Vec<_> = ir.region_blocks(from).collect();
    for b in blocks {
        ir.detach_block(b);
        ir.append_block(to, b);
    }
}

/// Appends the ops of `source` (its yield included) to `dest`, then
/// yields what both yields yielded, in order, in place of the two.
fn merge_yielding_blocks(
    rw: &mut Rewriter<'_>,
    source: silica_ir::BlockId,
    dest: silica_ir::BlockId,
) {
    let (Some(first), Some(second)) = (rw.ir.last_op(dest), rw.ir.last_op(source)) else {
        return;
    };
    let mut values: Vec<ValueId> = rw.ir.operands(first).collect();
    values.extend(rw.ir.operands(second));
    let loc = rw.ir.op_loc(second);
    rw.merge_blocks(source, dest, &[]);
    rw.set_insertion_point_to_end(dest);
    rw.create_simple("scf.yield", &values, &[], None, loc);
    rw.erase_op(first);
    rw.erase_op(second);
}

/// Two `scf.if`s in a row on one condition (or on a condition and its
/// negation) become one (MLIR's `CombineIfs`).
fn if_combine_consecutive(rw: &mut Rewriter<'_>, next: OpId) -> bool {
    let Some(prev) = rw
        .ir
        .prev_op(next)
        .filter(|&p| rw.ctx.str(rw.ir.op_name(p)) == "scf.if")
    else {
        return false;
    };
    let (prev_cond, next_cond) = (rw.ir.operand(prev, 0), rw.ir.operand(next, 0));
    let next_regions: Vec<silica_ir::RegionId> = rw.ir.regions(next).collect();
    let next_then_block = rw.ir.entry_block(next_regions[0]);
    let next_else_block = rw.ir.entry_block(next_regions[1]);
    let (mut next_then, mut next_else) = (None, None);
    if next_cond == prev_cond {
        next_then = next_then_block;
        next_else = next_else_block;
    }
    if is_negation_of(rw, next_cond, prev_cond) || is_negation_of(rw, prev_cond, next_cond) {
        next_else = next_then_block;
        next_then = next_else_block;
    }
    if next_then.is_none() && next_else.is_none() {
        return false;
    }
    let prev_regions: Vec<silica_ir::RegionId> = rw.ir.regions(prev).collect();
    let prev_then_vals: Vec<ValueId> =
        yield_of(rw.ir, prev_regions[0]).map_or_else(Vec::new, |y| rw.ir.operands(y).collect());
    let prev_else_vals: Vec<ValueId> = if rw.ir.region_is_empty(prev_regions[1]) {
        Vec::new()
    } else {
        yield_of(rw.ir, prev_regions[1]).map_or_else(Vec::new, |y| rw.ir.operands(y).collect())
    };
    // Uses of the first if's results inside the second take the value
    // its taken branch yielded.
    let results: Vec<ValueId> = rw.ir.results(prev).collect();
    for ((&r, &t), &e) in results.iter().zip(&prev_then_vals).zip(&prev_else_vals) {
        let uses: Vec<_> = rw.ir.uses(r).collect();
        for u in uses {
            let owner = rw.ir.use_owner(u);
            let inside = |b: Option<silica_ir::BlockId>| {
                b.and_then(|b| rw.ir.block_region(b))
                    .is_some_and(|region| rw.ir.is_in_region(owner, region))
            };
            if inside(next_then) {
                rw.ir.set_use(u, t);
                rw.modified(owner);
            } else if inside(next_else) {
                rw.ir.set_use(u, e);
                rw.modified(owner);
            }
        }
    }
    let mut types: Vec<_> = rw.ir.results(prev).map(|r| rw.ir.value_type(r)).collect();
    types.extend(rw.ir.results(next).map(|r| rw.ir.value_type(r)));
    let regions = vec![rw.ir.create_region(), rw.ir.create_region()];
    move_blocks(rw.ir, prev_regions[0], regions[0]);
    move_blocks(rw.ir, prev_regions[1], regions[1]);
    let loc = rw.ir.op_loc(next);
    let name = rw.ctx.sym("scf.if");
    let attrs = rw.ctx.empty_dict();
    rw.set_insertion_point(next);
    let combined = rw.create(OpSpec {
        name,
        loc,
        operands: &[prev_cond],
        result_types: &types,
        successors: &[],
        regions: &regions,
        attrs,
        props: None,
    });
    if let (Some(source), Some(dest)) = (next_then, rw.ir.entry_block(regions[0])) {
        merge_yielding_blocks(rw, source, dest);
    }
    if let Some(source) = next_else {
        match rw.ir.entry_block(regions[1]) {
            Some(dest) => merge_yielding_blocks(rw, source, dest),
            None => {
                let from = rw.ir.block_region(source);
                if let Some(from) = from {
                    move_blocks(rw.ir, from, regions[1]);
                }
            }
        }
    }
    let all: Vec<ValueId> = rw.ir.results(combined).collect();
    let (first, second) = all.split_at(results.len());
    let (first, second) = (first.to_vec(), second.to_vec());
    rw.replace_op(prev, &first);
    rw.replace_op(next, &second);
    true
}

/// `scf.if` patterns.
pub static IF_PATTERNS: &[Pattern] = &[
    Pattern::new("CombineIfs", if_combine_consecutive),
    Pattern::new("CombineNestedIfs", if_combine_nested),
    Pattern::new("ConvertTrivialIfToSelect", if_to_select),
    Pattern::new("RemoveStaticCondition", if_static_condition),
    Pattern::new("RemoveEmptyElseBranch", if_empty_else),
    Pattern::new("ConditionPropagation", if_condition_propagation),
    MAKE_INPUTS_DEAD,
    REMOVE_DEAD_INPUTS,
    REMOVE_DUPLICATE_INPUTS,
];
