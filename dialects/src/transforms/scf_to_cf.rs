//! `convert-scf-to-cf`: structured control flow to blocks and branches as
//! MLIR lowers it. `scf.for` splits its block: a condition block (the
//! loop body's entry, holding the induction variable and iteration
//! arguments) compares and branches into the body or past the loop; the
//! body's end steps the induction variable and branches back. `scf.if`
//! inlines its regions between a conditional branch and a continuation
//! block. `scf.while` becomes a before block and an after block (just a
//! before block when the after region only forwards its arguments).
//! `scf.execute_region` inlines its blocks; `scf.index_switch` becomes a
//! `cf.switch` on the index cast to `i32`; `scf.parallel` becomes a nest
//! of `scf.for` (reductions carried as iteration arguments), lowered in
//! turn.

use crate::build::Builder;
use silica_ir::diag::Diagnostic;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::rewrite::{NoListener, Rewriter};
use silica_ir::{Context, Ir, OpId, ValueId};

/// The terminator of `block` and its operands.
fn terminator(ir: &Ir, block: silica_ir::BlockId) -> (OpId, Vec<ValueId>) {
    let t = ir.last_op(block).expect("terminated block");
    (t, ir.operands(t).collect())
}

fn lower_for(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let loc = ir.op_loc(op);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let (lb, ub, step, inits) = (operands[0], operands[1], operands[2], &operands[3..]);
    let unsigned = silica_ir::dialect::inherent_attr(ctx, ir, op, "unsignedCmp").is_some();
    let init_block = ir.op_block(op).expect("op in a block");
    let end_block = ir.split_block(init_block, ir.next_op(op));
    let region = ir.regions(op).next().expect("loop body");
    let cond_block = ir.entry_block(region).expect("loop entry");
    let first_body = ir.split_block(cond_block, ir.first_op(cond_block));
    let last_body = ir.region_blocks(region).last().expect("body");
    ir.inline_region_before(region, end_block);
    let iv = ir.block_args(cond_block)[0];
    let (yield_op, yielded) = terminator(ir, last_body);
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point_to_end(last_body);
    let mut b = Builder { rw: &mut rw, loc };
    let stepped = b.binary("arith.addi", iv, step, None);
    let mut carried = vec![stepped];
    carried.extend(yielded);
    b.br(cond_block, &carried);
    // The loop's own attributes (loop annotations) go on the back edge.
    let attrs = rw.ir.op_attrs(op);
    if let Some(latch) = rw.ir.last_op(last_body) {
        rw.ir.set_op_attrs(latch, attrs);
    }
    rw.erase_op(yield_op);
    rw.set_insertion_point_to_end(init_block);
    let mut b = Builder { rw: &mut rw, loc };
    let mut entry = vec![lb];
    entry.extend_from_slice(inits);
    b.br(cond_block, &entry);
    b.rw.set_insertion_point_to_end(cond_block);
    let c = b.cmpi(if unsigned { "ult" } else { "slt" }, iv, ub);
    b.cond_br(c, first_body, &[], end_block, &[]);
    let results: Vec<ValueId> = rw.ir.block_args(cond_block)[1..].to_vec();
    rw.replace_op(op, &results);
}

fn lower_if(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let loc = ir.op_loc(op);
    let cond = ir.operand(op, 0);
    let cond_block = ir.op_block(op).expect("op in a block");
    let remaining = ir.split_block(cond_block, ir.next_op(op));
    let result_types: Vec<_> = ir.results(op).map(|r| ir.value_type(r)).collect();
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    let continue_block = if result_types.is_empty() {
        remaining
    } else {
        let blk = rw.ir.create_block();
        rw.ir.insert_block_before(remaining, blk);
        for t in &result_types {
            rw.ir.add_block_arg(blk, *t, Some(loc));
        }
        rw.set_insertion_point_to_end(blk);
        Builder { rw: &mut rw, loc }.br(remaining, &[]);
        blk
    };
    let regions: Vec<_> = rw.ir.regions(op).collect();
    let mut entries = Vec::new();
    for r in regions {
        let Some(entry) = rw.ir.entry_block(r) else {
            entries.push(continue_block);
            continue;
        };
        let last = rw.ir.region_blocks(r).last().expect("block");
        let (t, values) = terminator(rw.ir, last);
        rw.set_insertion_point_to_end(last);
        Builder { rw: &mut rw, loc }.br(continue_block, &values);
        rw.erase_op(t);
        rw.ir.inline_region_before(r, continue_block);
        entries.push(entry);
    }
    let else_block = entries.get(1).copied().unwrap_or(continue_block);
    rw.set_insertion_point_to_end(cond_block);
    Builder { rw: &mut rw, loc }.cond_br(cond, entries[0], &[], else_block, &[]);
    let results: Vec<ValueId> = rw.ir.block_args(continue_block).to_vec();
    rw.replace_op(op, &results);
}

/// Whether the after region of a while only forwards its arguments
/// (MLIR lowers such loops as do-while: one block, no after block).
fn is_do_while(ir: &Ir, after: silica_ir::RegionId) -> bool {
    let blocks: Vec<_> = ir.region_blocks(after).collect();
    let [b] = blocks.as_slice() else {
        return false;
    };
    let ops: Vec<_> = ir.block_ops(*b).collect();
    let [y] = ops.as_slice() else {
        return false;
    };
    ir.operands(*y).collect::<Vec<_>>() == ir.block_args(*b)
}

fn lower_while(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let loc = ir.op_loc(op);
    let inits: Vec<ValueId> = ir.operands(op).collect();
    let current = ir.op_block(op).expect("op in a block");
    let continuation = ir.split_block(current, ir.next_op(op));
    let regions: Vec<_> = ir.regions(op).collect();
    let (before_r, after_r) = (regions[0], regions[1]);
    let before = ir.entry_block(before_r).expect("before block");
    let before_last = ir.region_blocks(before_r).last().expect("block");
    let do_while = is_do_while(ir, after_r);
    let after = if do_while {
        None
    } else {
        Some((
            ir.entry_block(after_r).expect("after block"),
            ir.region_blocks(after_r).last().expect("block"),
        ))
    };
    match after {
        Some((after_first, _)) => {
            ir.inline_region_before(after_r, continuation);
            ir.inline_region_before(before_r, after_first);
        }
        None => ir.inline_region_before(before_r, continuation),
    }
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point_to_end(current);
    Builder { rw: &mut rw, loc }.br(before, &inits);
    let (cond_op, operands) = terminator(rw.ir, before_last);
    let (cond, args) = (operands[0], operands[1..].to_vec());
    rw.set_insertion_point(cond_op);
    let target = after.map_or(before, |(first, _)| first);
    Builder { rw: &mut rw, loc }.cond_br(cond, target, &args, continuation, &[]);
    // The loop's own attributes (loop annotations) go on the back edge:
    // the condition's branch of a do-while, the after region's branch
    // otherwise.
    let attrs = rw.ir.op_attrs(op);
    if after.is_none() {
        if let Some(back_edge) = rw.ir.prev_op(cond_op) {
            rw.ir.set_op_attrs(back_edge, attrs);
        }
    }
    rw.erase_op(cond_op);
    if let Some((_, after_last)) = after {
        let (yield_op, yielded) = terminator(rw.ir, after_last);
        rw.set_insertion_point(yield_op);
        Builder { rw: &mut rw, loc }.br(before, &yielded);
        if let Some(back_edge) = rw.ir.prev_op(yield_op) {
            rw.ir.set_op_attrs(back_edge, attrs);
        }
        rw.erase_op(yield_op);
    }
    rw.replace_op(op, &args);
}

/// `scf.execute_region`: its blocks inlined between a branch from the
/// current block and the rest of the block (which takes the results).
fn lower_execute_region(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let loc = ir.op_loc(op);
    let current = ir.op_block(op).expect("op in a block");
    let remaining = ir.split_block(current, ir.next_op(op));
    let region = ir.regions(op).next().expect("region");
    let entry = ir.entry_block(region).expect("entry block");
    let blocks: Vec<_> = ir.region_blocks(region).collect();
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point_to_end(current);
    Builder { rw: &mut rw, loc }.br(entry, &[]);
    for b in blocks {
        let Some(t) = rw.ir.last_op(b) else { continue };
        if rw.ctx.str(rw.ir.op_name(t)) != "scf.yield" {
            continue;
        }
        let values: Vec<ValueId> = rw.ir.operands(t).collect();
        rw.set_insertion_point_to_end(b);
        Builder { rw: &mut rw, loc }.br(remaining, &values);
        rw.erase_op(t);
    }
    rw.ir.inline_region_before(region, remaining);
    let types: Vec<_> = rw.ir.results(op).map(|r| rw.ir.value_type(r)).collect();
    let results: Vec<ValueId> = types
        .iter()
        .map(|t| rw.ir.add_block_arg(remaining, *t, Some(loc)))
        .collect();
    rw.replace_op(op, &results);
}

/// `scf.index_switch`: a `cf.switch` on the index cast to `i32`, each
/// case (then the default) a block branching to the continuation.
fn lower_index_switch(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let loc = ir.op_loc(op);
    let arg = ir.operand(op, 0);
    let cases = silica_ir::dialect::inherent_attr(ctx, ir, op, "cases")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default();
    let cond_block = ir.op_block(op).expect("op in a block");
    let continuation = ir.split_block(cond_block, Some(op));
    let types: Vec<_> = ir.results(op).map(|r| ir.value_type(r)).collect();
    let results: Vec<ValueId> = types
        .iter()
        .map(|t| ir.add_block_arg(continuation, *t, Some(loc)))
        .collect();
    let regions: Vec<_> = ir.regions(op).collect();
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    // The default region comes first; cases are converted before it.
    let mut entries = Vec::new();
    for &r in regions[1..].iter().chain(&regions[..1]) {
        let block = rw.ir.entry_block(r).expect("case block");
        let (y, values) = terminator(rw.ir, block);
        rw.set_insertion_point(y);
        Builder { rw: &mut rw, loc }.br(continuation, &values);
        rw.erase_op(y);
        rw.ir.inline_region_before(r, continuation);
        entries.push(block);
    }
    let default = entries.pop().expect("default region");
    rw.set_insertion_point_to_end(cond_block);
    let i32t = rw.ctx.signless(32);
    let value = {
        let c = rw.create_simple("arith.index_cast", &[arg], &[i32t], None, loc);
        rw.ir.result(c, 0)
    };
    let ctx = &mut *rw.ctx;
    let vec_ty = ctx.intern_type(silica_ir::TypeKind::Vector {
        shape: Box::new([cases.len() as i64]),
        scalable: Box::new([false]),
        element: i32t,
    });
    let elems: Vec<silica_ir::Attr> = cases.iter().map(|&c| ctx.int_attr(i32t, c)).collect();
    let mut props = vec![
        (
            ctx.sym("case_operand_segments"),
            ctx.int_array_attr(32, &vec![0; cases.len()]),
        ),
        (
            ctx.sym(silica_ir::format::SEGMENTS),
            ctx.int_array_attr(32, &[1, 0, 0]),
        ),
    ];
    if !cases.is_empty() {
        let elems = if elems.iter().all(|e| *e == elems[0]) {
            vec![elems[0]]
        } else {
            elems
        };
        let v = ctx.intern_attr(silica_ir::AttrKind::DenseElements {
            ty: vec_ty,
            values: elems.into(),
        });
        props.push((ctx.sym("case_values"), v));
    }
    let props = ctx.dict_attr(props);
    let name = ctx.sym("cf.switch");
    let attrs = ctx.empty_dict();
    let mut successors = vec![default];
    successors.extend(entries);
    rw.create(silica_ir::OpSpec {
        name,
        loc,
        operands: &[value],
        result_types: &[],
        successors: &successors,
        regions: &[],
        attrs,
        props: Some(props),
    });
    rw.replace_op(op, &results);
}

/// `scf.forall` without shared outputs, as MLIR lowers it: an
/// `scf.parallel` over the same bounds (the static ones as `arith.constant`
/// ops, lower bounds first, then upper bounds, then steps) with the body
/// moved over and `scf.reduce` for its `scf.forall.in_parallel`
/// terminator. Returns the `scf.parallel`.
fn forall_to_parallel(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<OpId, String> {
    if ir.num_results(op) > 0 {
        return Err(
            "'scf.forall' op with shared outputs cannot be lowered: bufferize it first".into(),
        );
    }
    let loc = ir.op_loc(op);
    let parts = crate::scf::forall::parts(ctx, ir, op);
    let Some(body) = parts.body else {
        return Err("'scf.forall' op has no body".into());
    };
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point(op);
    let mut bounds: Vec<ValueId> = Vec::new();
    for (dynamic, statics) in [
        (&parts.lbs, &parts.static_lbs),
        (&parts.ubs, &parts.static_ubs),
        (&parts.steps, &parts.static_steps),
    ] {
        let mut dynamic = dynamic.iter();
        for &s in statics {
            let value = match (s == crate::scf::forall::DYNAMIC)
                .then(|| dynamic.next())
                .flatten()
            {
                Some(&v) => v,
                None => Builder { rw: &mut rw, loc }.index_const(s),
            };
            bounds.push(value);
        }
    }
    let rank = bounds.len() / 3;
    let region = rw.ir.create_region();
    let blocks: Vec<_> = rw.ir.region_blocks(body).collect();
    for b in blocks {
        rw.ir.detach_block(b);
        rw.ir.append_block(region, b);
    }
    if let Some(terminator) = rw.ir.entry_block(region).and_then(|b| rw.ir.last_op(b)) {
        rw.set_insertion_point(terminator);
        rw.create_simple("scf.reduce", &[], &[], None, loc);
        rw.erase_op(terminator);
    }
    rw.set_insertion_point(op);
    let segments = rw
        .ctx
        .int_array_attr(32, &[rank as i64, rank as i64, rank as i64, 0]);
    let key = rw.ctx.sym(silica_ir::format::SEGMENTS);
    let props = rw.ctx.dict_attr(vec![(key, segments)]);
    let name = rw.ctx.sym("scf.parallel");
    // A device mapping goes along as a plain attribute.
    let mapping = silica_ir::dialect::inherent_attr(rw.ctx, rw.ir, op, "mapping");
    let entries = match mapping {
        Some(m) => vec![(rw.ctx.sym("mapping"), m)],
        None => Vec::new(),
    };
    let attrs = rw.ctx.dict_attr(entries);
    let parallel = rw.create(silica_ir::OpSpec {
        name,
        loc,
        operands: &bounds,
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: Some(props),
    });
    rw.erase_op(op);
    Ok(parallel)
}

/// `scf.parallel`: a nest of `scf.for`, outermost dimension first, the
/// reductions carried as iteration arguments through every level and
/// combined by their `scf.reduce` regions inlined at the innermost one;
/// returns the new loops, outermost first.
fn lower_parallel(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<Vec<OpId>, String> {
    let loc = ir.op_loc(op);
    let seg = silica_ir::format::segment_sizes(ctx, ir, op).unwrap_or_default();
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let n = seg.first().copied().unwrap_or(0);
    if n == 0 {
        return Err("'scf.parallel' op needs at least one tuple element for lowerBound, upperBound and step".into());
    }
    let (lbs, ubs, steps) = (&operands[..n], &operands[n..2 * n], &operands[2 * n..3 * n]);
    let inits = &operands[3 * n..];
    let result_types: Vec<_> = ir.results(op).map(|r| ir.value_type(r)).collect();
    let body = ir
        .regions(op)
        .next()
        .and_then(|r| ir.entry_block(r))
        .expect("parallel body");
    let ivs = ir.block_args(body).to_vec();
    let index = ctx.index_type();
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point(op);
    let mut loops: Vec<OpId> = Vec::new();
    let mut new_ivs = Vec::new();
    let mut iter_args: Vec<ValueId> = inits.to_vec();
    let mut block = None;
    for i in 0..n {
        let region = rw.ir.create_region();
        let b = rw.ir.create_block();
        rw.ir.append_block(region, b);
        new_ivs.push(rw.ir.add_block_arg(b, index, Some(loc)));
        let carried: Vec<ValueId> = result_types
            .iter()
            .map(|t| rw.ir.add_block_arg(b, *t, Some(loc)))
            .collect();
        let mut for_operands = vec![lbs[i], ubs[i], steps[i]];
        for_operands.extend(&iter_args);
        let f = {
            let name = rw.ctx.sym("scf.for");
            let attrs = rw.ctx.empty_dict();
            rw.create(silica_ir::OpSpec {
                name,
                loc,
                operands: &for_operands,
                result_types: &result_types,
                successors: &[],
                regions: &[region],
                attrs,
                props: None,
            })
        };
        if let Some(outer) = block.filter(|_| !result_types.is_empty()) {
            // The enclosing loop yields this one's results.
            let results: Vec<ValueId> = rw.ir.results(f).collect();
            rw.set_insertion_point_to_end(outer);
            rw.create_simple("scf.yield", &results, &[], None, loc);
        }
        // The next loop goes at the start of this one's body.
        if result_types.is_empty() {
            rw.set_insertion_point_to_end(b);
            let y = rw.create_simple("scf.yield", &[], &[], None, loc);
            rw.set_insertion_point(y);
        } else {
            rw.set_insertion_point_to_end(b);
        }
        iter_args = carried;
        loops.push(f);
        block = Some(b);
    }
    let inner = block.expect("at least one loop");
    // The reductions, inlined before the `scf.reduce` in the body.
    let reduce = rw.ir.last_op(body).expect("terminator");
    let reduced: Vec<ValueId> = rw.ir.operands(reduce).collect();
    let regions: Vec<_> = rw.ir.regions(reduce).collect();
    let mut yielded = Vec::new();
    for (i, r) in regions.into_iter().enumerate() {
        let rb = rw.ir.entry_block(r).expect("reduction block");
        let ret = rw.ir.last_op(rb).expect("scf.reduce.return");
        yielded.push(rw.ir.operand(ret, 0));
        rw.erase_op(ret);
        let args = rw.ir.block_args(rb).to_vec();
        rw.replace_all_uses(args[0], iter_args[i]);
        rw.replace_all_uses(args[1], reduced[i]);
        let ops: Vec<OpId> = rw.ir.block_ops(rb).collect();
        for o in ops {
            rw.ir.detach_op(o);
            rw.ir.insert_op_before(reduce, o);
        }
    }
    rw.erase_op(reduce);
    for (old, new) in ivs.iter().zip(&new_ivs) {
        rw.replace_all_uses(*old, *new);
    }
    // The body at the innermost loop's end (before its yield, if any).
    let anchor = rw.ir.last_op(inner);
    let ops: Vec<OpId> = rw.ir.block_ops(body).collect();
    for o in ops {
        rw.ir.detach_op(o);
        match anchor {
            Some(y) => rw.ir.insert_op_before(y, o),
            None => rw.ir.append_op(inner, o),
        }
    }
    if !result_types.is_empty() {
        rw.set_insertion_point_to_end(inner);
        rw.create_simple("scf.yield", &yielded, &[], None, loc);
    }
    let results: Vec<ValueId> = rw.ir.results(loops[0]).collect();
    rw.replace_op(op, &results);
    Ok(loops)
}

/// Lowers every structured control-flow op nested in `root`, outermost
/// first.
pub fn convert_scf_to_cf(
    ctx: &mut Context,
    ir: &mut Ir,
    root: OpId,
) -> Result<(), Box<Diagnostic>> {
    let mut ops = Vec::new();
    ir.walk(root, &mut |o| ops.push(o));
    ops.reverse();
    while let Some(op) = ops.pop() {
        if ir.is_erased(op) {
            continue;
        }
        match ctx.str(ir.op_name(op)) {
            "scf.for" => lower_for(ctx, ir, op),
            "scf.if" => lower_if(ctx, ir, op),
            "scf.while" => lower_while(ctx, ir, op),
            "scf.execute_region" => lower_execute_region(ctx, ir, op),
            "scf.index_switch" => lower_index_switch(ctx, ir, op),
            "scf.parallel" => match lower_parallel(ctx, ir, op) {
                // The new loops next, outermost first.
                Ok(loops) => ops.extend(loops.into_iter().rev()),
                Err(msg) => return Err(Box::new(Diagnostic::error(ir.op_loc(op), msg))),
            },
            "scf.forall" => match forall_to_parallel(ctx, ir, op) {
                // The new `scf.parallel` next.
                Ok(parallel) => ops.push(parallel),
                Err(msg) => return Err(Box::new(Diagnostic::error(ir.op_loc(op), msg))),
            },
            _ => {}
        }
    }
    Ok(())
}

struct ScfToCf;

impl Pass for ScfToCf {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        convert_scf_to_cf(ctx, ir, op)
    }
}

/// The `convert-scf-to-cf` pass.
pub static CONVERT_SCF_TO_CF: PassInfo = PassInfo {
    argument: "convert-scf-to-cf",
    name: "SCFToControlFlowPass",
    description:
        "Convert SCF dialect to ControlFlow dialect, replacing structured control flow with a CFG",
    anchor: None,
    options: &[silica_ir::pass::PassOptionInfo {
        name: "allow-pattern-rollback",
        description: "Experimental performance flag to disallow pattern rollback",
        kind: silica_ir::pass::OptionKind::Bool,
        default: "true",
    }],
    create: |_: &PassOptions| Ok(Box::new(ScfToCf)),
};

/// `scf-forall-to-parallel` (with `to_for`, `scf-forall-to-for`): every
/// `scf.forall` without shared outputs becomes an `scf.parallel` (and
/// that a nest of `scf.for`).
fn lower_foralls(
    ctx: &mut Context,
    ir: &mut Ir,
    root: OpId,
    to_for: bool,
) -> Result<(), Box<Diagnostic>> {
    let mut foralls = Vec::new();
    let forall = ctx.lookup_sym("scf.forall");
    ir.walk(root, &mut |o| {
        if Some(ir.op_name(o)) == forall {
            foralls.push(o);
        }
    });
    for op in foralls {
        let parallel = forall_to_parallel(ctx, ir, op)
            .map_err(|msg| Box::new(Diagnostic::error(ir.op_loc(op), msg)))?;
        if to_for {
            lower_parallel(ctx, ir, parallel)
                .map_err(|msg| Box::new(Diagnostic::error(ir.op_loc(parallel), msg)))?;
        }
    }
    Ok(())
}

struct ForallTo {
    to_for: bool,
}

impl Pass for ForallTo {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        lower_foralls(ctx, ir, op, self.to_for)
    }
}

/// The `scf-forall-to-parallel` pass.
pub static FORALL_TO_PARALLEL: PassInfo = PassInfo {
    argument: "scf-forall-to-parallel",
    name: "SCFForallToParallelLoop",
    description: "Convert SCF forall loops to SCF parallel loops",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(ForallTo { to_for: false })),
};

/// The `scf-forall-to-for` pass.
pub static FORALL_TO_FOR: PassInfo = PassInfo {
    argument: "scf-forall-to-for",
    name: "SCFForallToForLoop",
    description: "Convert SCF forall loops to SCF for loops",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(ForallTo { to_for: true })),
};
