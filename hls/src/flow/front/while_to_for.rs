//! `scf.while` loops that count (as lifting control flow between blocks
//! leaves them) raised to `scf.for`, which the flow pipelines: a `before`
//! region that only compares one of its arguments below a bound defined
//! outside the loop (`arith.cmpi slt`, or `ult` between constants that
//! are not negative) and forwards its arguments unchanged, and a `do`
//! region that yields that argument plus a positive constant. The
//! counter's final value must be unused after the loop (the `for` does
//! not give it); the other arguments become iteration arguments.

use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, BlockId, Context, Ir, OpId, OpSpec, ValueId};

/// Raises every counting `scf.while` under `func` to `scf.for`.
pub fn while_to_for(ctx: &mut Context, ir: &mut Ir, func: OpId) {
    let mut loops = Vec::new();
    ir.walk(func, &mut |op| {
        if ctx.str(ir.op_name(op)) == "scf.while" {
            loops.push(op);
        }
    });
    for op in loops {
        if let Some(shape) = counting(ctx, ir, op) {
            raise(ctx, ir, op, &shape);
        }
    }
}

/// What makes a `scf.while` a counted loop.
struct Counting {
    /// The position of the counter among the loop's values.
    counter: usize,
    upper: ValueId,
    step: ValueId,
    after: BlockId,
}

fn entry(ir: &Ir, op: OpId, i: usize) -> Option<BlockId> {
    ir.regions(op).nth(i).and_then(|r| ir.entry_block(r))
}

/// The integer value of a constant `v`.
fn constant(ctx: &Context, ir: &Ir, v: ValueId) -> Option<i128> {
    let op = ir.defining_op(v)?;
    if ctx.str(ir.op_name(op)) != "arith.constant" {
        return None;
    }
    match ctx.attr_kind(inherent_attr(ctx, ir, op, "value")?) {
        AttrKind::Integer { value, .. } => i128::try_from(value).ok(),
        _ => None,
    }
}

fn counting(ctx: &Context, ir: &Ir, op: OpId) -> Option<Counting> {
    let (before, after) = (entry(ir, op, 0)?, entry(ir, op, 1)?);
    let args = ir.block_args(before);
    let ops: Vec<OpId> = ir.block_ops(before).collect();
    let [cmp, condition] = ops[..] else {
        return None;
    };
    if ctx.str(ir.op_name(cmp)) != "arith.cmpi" {
        return None;
    }
    // Forwards its arguments as they are.
    let forwarded: Vec<ValueId> = ir.operands(condition).collect();
    if forwarded.first() != Some(&ir.result(cmp, 0)) || forwarded[1..] != *args {
        return None;
    }
    let predicate = match ctx.attr_kind(inherent_attr(ctx, ir, cmp, "predicate")?) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok()?,
        _ => return None,
    };
    let (lhs, upper) = (ir.operand(cmp, 0), ir.operand(cmp, 1));
    let counter = args.iter().position(|&a| a == lhs)?;
    // The bound from outside the loop.
    if ir
        .value_block(upper)
        .is_some_and(|b| b == before || b == after)
        || ir.defining_op(upper).is_some_and(|d| ir.is_ancestor(op, d))
    {
        return None;
    }
    let init = ir.operand(op, counter);
    let not_negative = |v| constant(ctx, ir, v).is_some_and(|c| c >= 0);
    // slt = 2, ult = 6.
    let ok = predicate == 2 || predicate == 6 && not_negative(init) && not_negative(upper);
    if !ok
        || !matches!(
            ctx.type_kind(ir.value_type(lhs)),
            silica_ir::TypeKind::Index
        )
    {
        return None;
    }
    // The counter's next value: plus a positive constant.
    let yield_op = ir.last_op(after)?;
    let next = ir.operand(yield_op, counter);
    let add = ir.defining_op(next)?;
    if ctx.str(ir.op_name(add)) != "arith.addi" || ir.op_block(add) != Some(after) {
        return None;
    }
    let iv = ir.block_args(after)[counter];
    let (a, b) = (ir.operand(add, 0), ir.operand(add, 1));
    let step = if a == iv {
        b
    } else if b == iv {
        a
    } else {
        return None;
    };
    if constant(ctx, ir, step).is_none_or(|c| c <= 0) {
        return None;
    }
    // The counter's final value is not used.
    if ir.has_uses(ir.result(op, counter)) {
        return None;
    }
    Some(Counting {
        counter,
        upper,
        step,
        after,
    })
}

fn raise(ctx: &mut Context, ir: &mut Ir, op: OpId, c: &Counting) {
    let loc = ir.op_loc(op);
    let inits: Vec<ValueId> = ir.operands(op).collect();
    let lower = inits[c.counter];
    let carried: Vec<usize> = (0..inits.len()).filter(|&i| i != c.counter).collect();
    let types: Vec<_> = carried.iter().map(|&i| ir.value_type(inits[i])).collect();
    // The `do` block becomes the body: the counter first, then the others.
    let body = c.after;
    let old_args = ir.block_args(body).to_vec();
    let index = ctx.index_type();
    let iv = ir.add_block_arg(body, index, Some(loc));
    let iter: Vec<ValueId> = types
        .iter()
        .map(|&t| ir.add_block_arg(body, t, Some(loc)))
        .collect();
    ir.replace_all_uses(old_args[c.counter], iv);
    for (k, &i) in carried.iter().enumerate() {
        ir.replace_all_uses(old_args[i], iter[k]);
    }
    for i in (0..old_args.len()).rev() {
        ir.erase_block_arg(body, i);
    }
    let yield_op = ir.last_op(body).expect("a yield");
    let yielded: Vec<ValueId> = ir.operands(yield_op).collect();
    let kept: Vec<ValueId> = carried.iter().map(|&i| yielded[i]).collect();
    ir.set_operands(yield_op, &kept);
    // The counter's increment, now unused.
    if let Some(add) = ir.defining_op(yielded[c.counter]) {
        if !ir.has_uses(yielded[c.counter]) {
            ir.erase_op(add);
        }
    }
    // The region moves to the new loop.
    let region = ir.create_region();
    ir.detach_block(body);
    ir.append_block(region, body);
    let mut operands = vec![lower, c.upper, c.step];
    operands.extend(carried.iter().map(|&i| inits[i]));
    let name = ctx.sym("scf.for");
    let attrs = ctx.empty_dict();
    let new = ir.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &types,
        successors: &[],
        regions: &[region],
        attrs,
        props: None,
    });
    ir.insert_op_before(op, new);
    let results: Vec<ValueId> = ir.results(op).collect();
    for (k, &i) in carried.iter().enumerate() {
        let r = ir.result(new, k);
        ir.replace_all_uses(results[i], r);
    }
    ir.erase_op(op);
}
