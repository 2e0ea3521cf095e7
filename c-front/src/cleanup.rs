//! What the lowering leaves dead, removed: the `index` casts of values
//! that never became a subscript or a bound, the C-typed copies of
//! induction variables nothing reads, the constants of folded
//! expressions, and the variables a loop carries or a branch yields
//! that nothing reads (the lowering carries every variable a loop
//! assigns; a variable set afresh in each iteration, as PolyBench's
//! scalar temporaries are, is read by no later iteration nor after the
//! loop). Repeated until nothing changes; common subexpressions are
//! merged first, and MLIR's `remove-dead-values` finds the values dead
//! across loops (a loop's result that only feeds the next loop).

use silica_ir::rewrite::effects::is_trivially_dead;
use silica_ir::{BlockId, Context, Ir, OpId, OpSpec, ValueId};

/// Merges common subexpressions (the conversions C repeats for each
/// use of a value), then removes dead values and ops under `module`.
pub fn run(ctx: &mut Context, ir: &mut Ir, module: OpId) {
    silica_ir::transforms::eliminate_common_subexpressions(ctx, ir, module);
    // Liveness across loops first (a variable carried through a nest of
    // loops, read by none), which leaves poison where the dead values
    // were; then the loops and branches shrink.
    silica_dialects::transforms::remove_dead_values::remove_dead_values(ctx, ir, module, false);
    loop {
        let mut changed = false;
        let mut ops = Vec::new();
        ir.walk(module, &mut |op| ops.push(op));
        for op in ops.into_iter().rev() {
            if ir.is_erased(op) || op == module {
                continue;
            }
            if is_trivially_dead(ctx, ir, op) {
                ir.erase_op(op);
                changed = true;
            } else if let Some(dead) = dead_results(ctx, ir, op) {
                shrink(ctx, ir, op, &dead);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// The terminator of a block.
fn terminator(ir: &Ir, b: BlockId) -> Option<OpId> {
    ir.last_op(b)
}

fn blocks(ir: &Ir, op: OpId) -> Vec<BlockId> {
    ir.regions(op)
        .flat_map(|r| ir.region_blocks(r).collect::<Vec<_>>())
        .collect()
}

/// Whether `v`'s only use is operand `index` of `user`.
fn only_used_by(ir: &Ir, v: ValueId, user: OpId, index: usize) -> bool {
    ir.uses(v).all(|u| ir.use_owner(u) == user)
        && ir
            .operands(user)
            .enumerate()
            .filter(|(_, x)| *x == v)
            .all(|(i, _)| i == index)
}

/// The results of a loop or branch that nothing reads, where dropping
/// them (with what feeds them) keeps the op's meaning.
fn dead_results(ctx: &Context, ir: &Ir, op: OpId) -> Option<Vec<usize>> {
    let name = ctx.str(ir.op_name(op));
    let n = ir.num_results(op);
    if n == 0 {
        return None;
    }
    let unused = |k: usize| !ir.has_uses(ir.result(op, k));
    let dead: Vec<usize> = match name {
        "affine.for" | "scf.for" => {
            let body = *blocks(ir, op).first()?;
            let args = ir.block_args(body);
            let yield_op = terminator(ir, body)?;
            (0..n)
                .filter(|&k| {
                    let arg = args[k + 1];
                    unused(k) && (!ir.has_uses(arg) || only_used_by(ir, arg, yield_op, k))
                })
                .collect()
        }
        "affine.if" | "scf.if" => (0..n).filter(|&k| unused(k)).collect(),
        "scf.while" => {
            let bs = blocks(ir, op);
            let (before, after) = (*bs.first()?, *bs.get(1)?);
            let cond = terminator(ir, before)?;
            let (bargs, aargs) = (ir.block_args(before), ir.block_args(after));
            (0..n)
                .filter(|&k| {
                    unused(k)
                        && !ir.has_uses(aargs[k])
                        && (!ir.has_uses(bargs[k]) || only_used_by(ir, bargs[k], cond, k + 1))
                })
                .collect()
        }
        _ => return None,
    };
    (!dead.is_empty()).then_some(dead)
}

/// Rebuilds `op` without the results `dead`, and without the initial
/// values, block arguments and yielded values that go with them.
fn shrink(ctx: &mut Context, ir: &mut Ir, op: OpId, dead: &[usize]) {
    let name = ctx.str(ir.op_name(op)).to_string();
    let n = ir.num_results(op);
    let keep: Vec<usize> = (0..n).filter(|k| !dead.contains(k)).collect();
    let operands: Vec<ValueId> = ir.operands(op).collect();
    // Where the loop-carried initial values start among the operands.
    let first_init = match name.as_str() {
        "affine.for" | "scf.for" | "scf.while" => Some(operands.len() - n),
        _ => None,
    };
    let new_operands: Vec<ValueId> = match first_init {
        Some(f) => operands[..f]
            .iter()
            .copied()
            .chain(keep.iter().map(|&k| operands[f + k]))
            .collect(),
        None => operands.clone(),
    };
    let types: Vec<_> = keep
        .iter()
        .map(|&k| ir.value_type(ir.result(op, k)))
        .collect();
    let segments = silica_ir::format::segment_sizes(ctx, ir, op);
    let old_blocks = blocks(ir, op);
    // Block arguments and terminator operands to drop.
    for (bi, &b) in old_blocks.iter().enumerate() {
        let arg_offset = match name.as_str() {
            "affine.for" | "scf.for" => Some(1),
            "scf.while" => Some(0),
            _ => None,
        };
        // An argument's only use is the terminator forwarding it
        // (checked): the terminator's operands go first.
        if let Some(t) = terminator(ir, b) {
            let ops: Vec<ValueId> = ir.operands(t).collect();
            let skip = usize::from(name == "scf.while" && bi == 0);
            let kept: Vec<ValueId> = ops[..skip]
                .iter()
                .copied()
                .chain(keep.iter().filter_map(|&k| ops.get(skip + k).copied()))
                .collect();
            if ops.len() == n + skip {
                ir.set_operands(t, &kept);
            }
        }
        if let Some(off) = arg_offset {
            for &k in dead.iter().rev() {
                ir.erase_block_arg(b, off + k);
            }
        }
    }
    let regions = ir.create_regions(ir.num_regions(op));
    for (r, &nr) in ir.regions(op).collect::<Vec<_>>().iter().zip(&regions) {
        for b in ir.region_blocks(*r).collect::<Vec<_>>() {
            ir.detach_block(b);
            ir.append_block(nr, b);
        }
    }
    let new = ir.create_op(OpSpec {
        name: ir.op_name(op),
        loc: ir.op_loc(op),
        operands: &new_operands,
        result_types: &types,
        successors: &[],
        regions: &regions,
        attrs: ir.op_attrs(op),
        props: ir.op_props(op),
    });
    if let (Some(s), "affine.for") = (segments, name.as_str()) {
        let sizes = ctx.int_array_attr(32, &[s[0] as i64, s[1] as i64, keep.len() as i64]);
        silica_ir::dialect::set_inherent_attr(ctx, ir, new, "operandSegmentSizes", sizes);
    }
    ir.insert_op_before(op, new);
    for (j, &k) in keep.iter().enumerate() {
        let (old, nv) = (ir.result(op, k), ir.result(new, j));
        ir.replace_all_uses(old, nv);
    }
    ir.erase_op(op);
}
