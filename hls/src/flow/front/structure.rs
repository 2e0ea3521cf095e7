//! Unstructured control flow (`cf.br`, `cf.cond_br`, `cf.switch` between
//! the blocks of a function) lifted to structured loops and conditionals,
//! as CIRCT's test kernels and C front ends write it, so that the lifter
//! sees `scf.while` and `scf.if` only.
//!
//! A `cf.switch` becomes a chain of `cf.cond_br` on equalities, an
//! `scf.index_switch` (as `lift-cf-to-scf` leaves them) nested `scf.if`s,
//! and the function's returns one return block. Each natural loop (a header that
//! dominates the sources of its back edges) becomes an `scf.while`: its
//! `before` region runs from the header to the loop's one exit test, whose
//! `scf.condition` forwards the values the rest of the loop and the code
//! after it use; its `do` region runs from there back to the header. A
//! `cf.cond_br` inside a region becomes an `scf.if` that yields the
//! arguments its branches pass to the block where they meet (the branch's
//! immediate post-dominator). A loop of another shape (several exits, a
//! back edge past a test at the bottom) first gets one latch and exit
//! test ([`single_exit`]): its back and exit edges go to a new block that
//! carries a tag and every edge's arguments and branches on the tag.
//! The lifting runs on a copy of the function: where the flow does not
//! nest (irreducible cycles, a block reached from places whose branches
//! meet elsewhere), the function becomes a state machine instead
//! (`state_machine.rs`), with a note.

use rustc_hash::{FxHashMap, FxHashSet};
use silica_ir::{Attr, BlockId, Context, Diagnostic, Ir, OpId, OpSpec, Type, ValueId};

pub(super) type Res<T> = Result<T, Box<Diagnostic>>;

/// Lifts the control flow between the blocks of `func` to structured
/// ops (nothing to do for a function of one block); gives a note where
/// it had to be a state machine.
pub fn structure(ctx: &mut Context, ir: &mut Ir, func: OpId) -> Res<Option<String>> {
    let mut switches = Vec::new();
    ir.walk(func, &mut |op| {
        if ctx.str(ir.op_name(op)) == "scf.index_switch" {
            switches.push(op);
        }
    });
    for op in switches {
        switch_to_ifs(ctx, ir, op);
    }
    let Some(region) = ir.regions(func).next() else {
        return Ok(None);
    };
    if ir.region_blocks(region).count() <= 1 {
        return Ok(None);
    }
    let blocks: Vec<BlockId> = ir.region_blocks(region).collect();
    for &b in &blocks {
        if let Some(t) = ir.last_op(b) {
            if ctx.str(ir.op_name(t)) == "cf.switch" {
                split_switch(ctx, ir, t);
            }
        }
    }
    unify_returns(ctx, ir, region);
    let mut listener = silica_ir::rewrite::NoListener;
    let mut rw = silica_ir::rewrite::Rewriter::new(ctx, ir, &mut listener);
    silica_ir::rewrite::erase_unreachable_blocks(&mut rw, &[region]);
    // Lifted on a copy: where the flow does not nest, a state machine.
    let mut trial = ir.clone();
    if lift(ctx, &mut trial, region).is_ok() {
        *ir = trial;
        return Ok(None);
    }
    super::state_machine::state_machine(ctx, ir, region)?;
    let name = super::call::function_name(ctx, ir, func);
    Ok(Some(format!(
        "'{name}': its control flow does not nest into loops and conditionals: it runs as a state machine, a block a step"
    )))
}

/// Lifts the blocks of `region` (switches split, one return) to loops
/// and conditionals.
fn lift(ctx: &mut Context, ir: &mut Ir, region: silica_ir::RegionId) -> Res<()> {
    // Loops of other shapes get one exit test first, a loop at a time.
    let mut cfg = Cfg::build(ctx, ir, region)?;
    for _ in 0..=cfg.blocks.len() {
        let mut headers: Vec<usize> = cfg.loops.keys().copied().collect();
        headers.sort_unstable();
        let Some(h) = headers.into_iter().find(|&h| !cfg.simple(ctx, ir, h)) else {
            break;
        };
        single_exit(ctx, ir, &cfg, h);
        cfg = Cfg::build(ctx, ir, region)?;
    }
    let entry = cfg.blocks[0];
    let mut s = Structurer {
        ctx,
        ir,
        cfg,
        taken: FxHashSet::default(),
    };
    s.emit(0, Vec::new(), None, entry, None)?;
    for &b in &s.cfg.blocks[1..] {
        s.ir.erase_block(b);
    }
    Ok(())
}

/// An error at `op` naming what does not nest.
fn unstructured(ir: &Ir, op: OpId, why: &str) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(
        ir.op_loc(op),
        format!(
            "control flow that silica hls cannot lift to structured loops and conditionals: {why}"
        ),
    ))
}

pub(super) fn create(
    ctx: &mut Context,
    ir: &mut Ir,
    name: &str,
    operands: &[ValueId],
    results: &[Type],
    (successors, props): (&[BlockId], Option<Attr>),
    loc: Attr,
) -> OpId {
    let name = ctx.sym(name);
    let attrs = ctx.empty_dict();
    ir.create_op(OpSpec {
        name,
        loc,
        operands,
        result_types: results,
        successors,
        regions: &[],
        attrs,
        props,
    })
}

/// A detached `arith.constant value : ty`.
pub(super) fn constant(
    ctx: &mut Context,
    ir: &mut Ir,
    ty: Type,
    value: impl Into<num_bigint::BigInt>,
    loc: Attr,
) -> OpId {
    let v = ctx.int_attr(ty, value);
    let key = ctx.sym("value");
    let props = Some(ctx.dict_attr(vec![(key, v)]));
    create(ctx, ir, "arith.constant", &[], &[ty], (&[], props), loc)
}

/// `arith.cmpi` predicates as arith numbers them.
pub(super) const EQ: i64 = 0;
pub(super) const NE: i64 = 1;

/// A detached `arith.cmpi predicate, a, b`.
pub(super) fn cmpi(
    ctx: &mut Context,
    ir: &mut Ir,
    predicate: i64,
    (a, b): (ValueId, ValueId),
    loc: Attr,
) -> OpId {
    let i1 = ctx.signless(1);
    let i64t = ctx.signless(64);
    let p = ctx.int_attr(i64t, predicate);
    let key = ctx.sym("predicate");
    let props = Some(ctx.dict_attr(vec![(key, p)]));
    create(ctx, ir, "arith.cmpi", &[a, b], &[i1], (&[], props), loc)
}

/// The operands `op` (a `cf.br` or `cf.cond_br`) passes to successor
/// `succ`.
pub(super) fn edge_args(ctx: &Context, ir: &Ir, op: OpId, succ: usize) -> Vec<ValueId> {
    let operands: Vec<ValueId> = ir.operands(op).collect();
    match ctx.str(ir.op_name(op)) {
        "cf.cond_br" => {
            let segments = silica_ir::format::segment_sizes(ctx, ir, op).unwrap_or_default();
            let t = segments.get(1).copied().unwrap_or(0);
            if succ == 0 {
                operands[1..1 + t].to_vec()
            } else {
                operands[1 + t..].to_vec()
            }
        }
        _ => operands,
    }
}

/// A `cf.cond_br` on `cond` appended to `block`.
fn cond_br(
    ctx: &mut Context,
    ir: &mut Ir,
    block: BlockId,
    cond: ValueId,
    (t, ta): (BlockId, &[ValueId]),
    (f, fa): (BlockId, &[ValueId]),
    loc: Attr,
) {
    let mut operands = vec![cond];
    operands.extend(ta);
    operands.extend(fa);
    let segments = ctx.int_array_attr(32, &[1, ta.len() as i64, fa.len() as i64]);
    let key = ctx.sym("operandSegmentSizes");
    let props = Some(ctx.dict_attr(vec![(key, segments)]));
    let op = create(ctx, ir, "cf.cond_br", &operands, &[], (&[t, f], props), loc);
    ir.append_op(block, op);
}

/// Replaces `cf.switch` op `op` by a chain of `cf.cond_br` on the flag's
/// equality with each case value, in order, ending at the default.
fn split_switch(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let loc = ir.op_loc(op);
    let block = ir.op_block(op).expect("a terminator has a block");
    let flag = ir.operand(op, 0);
    let flag_type = ir.value_type(flag);
    let values = silica_dialects::cf::switch_case_values(ctx, ir, op);
    let successors = ir.successors(op).to_vec();
    let args: Vec<Vec<ValueId>> = (0..successors.len())
        .map(|i| {
            silica_dialects::cf::successor_operands(ctx, ir, op, i)
                .map(|j| ir.operand(op, j))
                .collect()
        })
        .collect();
    ir.erase_op(op);
    let mut at = block;
    for (i, value) in values.iter().enumerate() {
        let c = constant(ctx, ir, flag_type, value.clone(), loc);
        ir.append_op(at, c);
        let c = ir.result(c, 0);
        let cmp = cmpi(ctx, ir, EQ, (flag, c), loc);
        ir.append_op(at, cmp);
        let cond = ir.result(cmp, 0);
        let next = if i + 1 == values.len() {
            None
        } else {
            let n = ir.create_block();
            ir.insert_block_after(at, n);
            Some(n)
        };
        let (no, no_args) = match next {
            Some(n) => (n, Vec::new()),
            None => (successors[0], args[0].clone()),
        };
        cond_br(
            ctx,
            ir,
            at,
            cond,
            (successors[i + 1], &args[i + 1]),
            (no, &no_args),
            loc,
        );
        if let Some(n) = next {
            at = n;
        }
    }
    if values.is_empty() {
        let br = create(
            ctx,
            ir,
            "cf.br",
            &args[0],
            &[],
            (&[successors[0]], None),
            loc,
        );
        ir.append_op(block, br);
    }
}

/// Replaces `scf.index_switch` op `op` by `scf.if`s on the equality of
/// its operand with each case value in order, the last `else` the
/// default (their regions moved).
fn switch_to_ifs(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let loc = ir.op_loc(op);
    let flag = ir.operand(op, 0);
    let index = ir.value_type(flag);
    let types: Vec<Type> = ir.results(op).map(|r| ir.value_type(r)).collect();
    let cases = silica_ir::dialect::inherent_attr(ctx, ir, op, "cases")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default();
    let regions: Vec<silica_ir::RegionId> = ir.regions(op).collect();
    let moved = |ir: &mut Ir, from: silica_ir::RegionId| {
        let to = ir.create_region();
        let blocks: Vec<BlockId> = ir.region_blocks(from).collect();
        for b in blocks {
            ir.detach_block(b);
            ir.append_block(to, b);
        }
        to
    };
    // Innermost first: the default, then each case around it.
    let mut otherwise = moved(ir, regions[0]);
    let mut outer = None;
    for (i, &value) in cases.iter().enumerate().rev() {
        let case = constant(ctx, ir, index, value, loc);
        let c = ir.result(case, 0);
        let cmp = cmpi(ctx, ir, EQ, (flag, c), loc);
        let then = moved(ir, regions[i + 1]);
        let name = ctx.sym("scf.if");
        let attrs = ctx.empty_dict();
        let cond = ir.result(cmp, 0);
        let branch = ir.create_op(OpSpec {
            name,
            loc,
            operands: &[cond],
            result_types: &types,
            successors: &[],
            regions: &[then, otherwise],
            attrs,
            props: None,
        });
        if i == 0 {
            for o in [case, cmp, branch] {
                ir.insert_op_before(op, o);
            }
            outer = Some(branch);
        } else {
            // The `else` of the case before: this test and its yield.
            let region = ir.create_region();
            let block = ir.create_block();
            ir.append_block(region, block);
            for o in [case, cmp, branch] {
                ir.append_op(block, o);
            }
            let results: Vec<ValueId> = ir.results(branch).collect();
            let y = create(ctx, ir, "scf.yield", &results, &[], (&[], None), loc);
            ir.append_op(block, y);
            otherwise = region;
        }
    }
    let results: Vec<ValueId> = ir.results(op).collect();
    let replacement: Vec<ValueId> = match outer {
        Some(b) => ir.results(b).collect(),
        None => {
            // No case: the default's code, in place.
            let blocks: Vec<BlockId> = ir.region_blocks(otherwise).collect();
            let block = blocks[0];
            let ops: Vec<OpId> = ir.block_ops(block).collect();
            let (last, body) = ops.split_last().expect("a region ends with its yield");
            for &o in body {
                ir.detach_op(o);
                ir.insert_op_before(op, o);
            }
            ir.operands(*last).collect()
        }
    };
    for (r, v) in results.into_iter().zip(replacement) {
        ir.replace_all_uses(r, v);
    }
    ir.erase_op(op);
}

/// A fresh `ub.poison` of type `ty` before `before`.
fn poison(ctx: &mut Context, ir: &mut Ir, ty: Type, before: OpId) -> ValueId {
    let loc = ir.op_loc(before);
    let value = silica_dialects::ub::poison_attr(ctx);
    let key = ctx.sym("value");
    let props = Some(ctx.dict_attr(vec![(key, value)]));
    let op = create(ctx, ir, "ub.poison", &[], &[ty], (&[], props), loc);
    ir.insert_op_before(before, op);
    ir.result(op, 0)
}

/// An `i32` constant before `before`.
fn tag(ctx: &mut Context, ir: &mut Ir, value: i64, before: OpId) -> ValueId {
    let loc = ir.op_loc(before);
    let i32t = ctx.signless(32);
    let op = constant(ctx, ir, i32t, value, loc);
    ir.insert_op_before(before, op);
    ir.result(op, 0)
}

/// Points successor `slot` of branch `t` (a `cf.br` or `cf.cond_br`) at
/// `dest` with `args`.
fn retarget(ctx: &mut Context, ir: &mut Ir, t: OpId, slot: usize, dest: BlockId, args: &[ValueId]) {
    let mut edges: Vec<Vec<ValueId>> = (0..ir.successors(t).len())
        .map(|i| edge_args(ctx, ir, t, i))
        .collect();
    edges[slot] = args.to_vec();
    ir.set_successor(t, slot, dest);
    if ctx.str(ir.op_name(t)) == "cf.cond_br" {
        let mut operands = vec![ir.operand(t, 0)];
        operands.extend(edges.iter().flatten());
        ir.set_operands(t, &operands);
        let segments = ctx.int_array_attr(32, &[1, edges[0].len() as i64, edges[1].len() as i64]);
        silica_ir::dialect::set_inherent_attr(ctx, ir, t, "operandSegmentSizes", segments);
    } else {
        ir.set_operands(t, &edges[0]);
    }
}

/// Gives the loop headed by `h` one latch and exit test: every back
/// edge and every exit edge goes to a new block `L` with a tag (0 to go
/// round, `i + 1` to leave by exit `i`), the header's arguments, every
/// exit's arguments and the loop's values used after it (poison where an
/// edge has none of them); `L` branches to the header on 0, else to a new
/// block `D` after the loop, which branches on the tag to the exit taken.
fn single_exit(ctx: &mut Context, ir: &mut Ir, cfg: &Cfg, h: usize) {
    let body = &cfg.loops[&h];
    let mut members: Vec<usize> = body.iter().copied().collect();
    members.sort_unstable();
    let header = cfg.blocks[h];
    let header_types: Vec<Type> = ir
        .block_args(header)
        .iter()
        .map(|&a| ir.value_type(a))
        .collect();
    // The edges: (source, successor slot, target).
    let mut latches = Vec::new();
    let mut exits = Vec::new();
    for &u in &members {
        let t = ir.last_op(cfg.blocks[u]).expect("a terminator");
        for (slot, target) in ir.successors(t).to_vec().into_iter().enumerate() {
            let v = cfg.index[&target];
            if v == h {
                latches.push((u, slot));
            } else if !body.contains(&v) {
                exits.push((u, slot, v));
            }
        }
    }
    // Values of the loop used after it.
    let inside = |ir: &Ir, op: OpId| {
        let mut cur = Some(op);
        while let Some(o) = cur {
            if let Some(&b) = ir.op_block(o).and_then(|b| cfg.index.get(&b)) {
                return body.contains(&b);
            }
            cur = ir.parent_op(o);
        }
        false
    };
    let mut escaping: Vec<(ValueId, usize)> = Vec::new();
    for &u in &members {
        let block = cfg.blocks[u];
        let mut values: Vec<ValueId> = ir.block_args(block).to_vec();
        for op in ir.block_ops(block) {
            values.extend(ir.results(op));
        }
        for v in values {
            if ir.uses(v).any(|use_| !inside(ir, ir.use_owner(use_))) {
                escaping.push((v, u));
            }
        }
    }
    let exit_types: Vec<Vec<Type>> = exits
        .iter()
        .map(|&(_, _, v)| {
            ir.block_args(cfg.blocks[v])
                .iter()
                .map(|&a| ir.value_type(a))
                .collect()
        })
        .collect();
    let escaping_types: Vec<Type> = escaping.iter().map(|&(v, _)| ir.value_type(v)).collect();
    let i32t = ctx.signless(32);
    let loc = cfg.locs[h];
    let region = ir.block_region(header).expect("a block of a region");
    let latch = ir.create_block();
    ir.append_block(region, latch);
    let dispatch = ir.create_block();
    ir.append_block(region, dispatch);
    let mut types = vec![i32t];
    types.extend(&header_types);
    for t in &exit_types {
        types.extend(t);
    }
    types.extend(&escaping_types);
    let latch_args: Vec<ValueId> = types
        .iter()
        .map(|&t| ir.add_block_arg(latch, t, Some(loc)))
        .collect();
    let dispatch_args: Vec<ValueId> = std::iter::once(i32t)
        .chain(exit_types.iter().flatten().copied())
        .chain(escaping_types.iter().copied())
        .map(|t| ir.add_block_arg(dispatch, t, Some(loc)))
        .collect();
    // The edges into L: (source, slot, tag, header arguments, exit i and
    // its arguments).
    let edges: Vec<(usize, usize, usize)> = latches
        .iter()
        .map(|&(u, slot)| (u, slot, 0))
        .chain(
            exits
                .iter()
                .enumerate()
                .map(|(i, &(u, slot, _))| (u, slot, i + 1)),
        )
        .collect();
    for (u, slot, which) in edges {
        let t = ir.last_op(cfg.blocks[u]).expect("a terminator");
        let given = edge_args(ctx, ir, t, slot);
        let mut args = vec![tag(ctx, ir, which as i64, t)];
        if which == 0 {
            args.extend(&given);
        } else {
            for &ty in &header_types {
                args.push(poison(ctx, ir, ty, t));
            }
        }
        for (i, tys) in exit_types.iter().enumerate() {
            if which == i + 1 {
                args.extend(&given);
            } else {
                for &ty in tys {
                    args.push(poison(ctx, ir, ty, t));
                }
            }
        }
        for &(v, at) in &escaping {
            let available = cfg.dom[u].contains(&at);
            args.push(if available {
                v
            } else {
                let ty = ir.value_type(v);
                poison(ctx, ir, ty, t)
            });
        }
        retarget(ctx, ir, t, slot, latch, &args);
    }
    // L: round again on 0, else leave through D.
    let zero = {
        let c = constant(ctx, ir, i32t, 0, loc);
        ir.append_op(latch, c);
        ir.result(c, 0)
    };
    let again = cmpi(ctx, ir, EQ, (latch_args[0], zero), loc);
    ir.append_op(latch, again);
    let again = ir.result(again, 0);
    let n = header_types.len();
    let mut leave = vec![latch_args[0]];
    leave.extend(&latch_args[1 + n..]);
    cond_br(
        ctx,
        ir,
        latch,
        again,
        (header, &latch_args[1..=n]),
        (dispatch, &leave),
        loc,
    );
    // The values used after the loop come from D.
    let first_escaping = 1 + exit_types.iter().map(Vec::len).sum::<usize>();
    for (k, &(v, _)) in escaping.iter().enumerate() {
        let to = dispatch_args[first_escaping + k];
        let users: Vec<OpId> = ir.uses(v).map(|u| ir.use_owner(u)).collect();
        for user in users {
            if inside(ir, user) || ir.op_block(user) == Some(latch) {
                continue;
            }
            let count = ir.operands(user).len();
            for i in 0..count {
                if ir.operand(user, i) == v {
                    ir.set_operand(user, i, to);
                }
            }
        }
    }
    // D: to exit i on tag i + 1, the last exit otherwise.
    let mut at = dispatch;
    let mut offset = 1;
    for (i, &(_, _, target)) in exits.iter().enumerate() {
        let count = exit_types[i].len();
        let args = dispatch_args[offset..offset + count].to_vec();
        offset += count;
        let target = cfg.blocks[target];
        if i + 1 == exits.len() {
            let br = create(ctx, ir, "cf.br", &args, &[], (&[target], None), loc);
            ir.append_op(at, br);
            break;
        }
        let c = constant(ctx, ir, i32t, (i + 1) as i64, loc);
        ir.append_op(at, c);
        let c = ir.result(c, 0);
        let is = cmpi(ctx, ir, EQ, (dispatch_args[0], c), loc);
        ir.append_op(at, is);
        let is = ir.result(is, 0);
        let next = ir.create_block();
        ir.append_block(region, next);
        cond_br(ctx, ir, at, is, (target, &args), (next, &[]), loc);
        at = next;
    }
}

/// Makes every `func.return` of `region` a branch to one return block.
fn unify_returns(ctx: &mut Context, ir: &mut Ir, region: silica_ir::RegionId) {
    let returns: Vec<OpId> = ir
        .region_blocks(region)
        .filter_map(|b| ir.last_op(b))
        .filter(|&t| ctx.str(ir.op_name(t)) == "func.return")
        .collect();
    if returns.len() <= 1 {
        return;
    }
    let loc = ir.op_loc(returns[0]);
    let types: Vec<Type> = ir.operands(returns[0]).map(|v| ir.value_type(v)).collect();
    let exit = ir.create_block();
    ir.append_block(region, exit);
    let args: Vec<ValueId> = types
        .iter()
        .map(|&t| ir.add_block_arg(exit, t, Some(loc)))
        .collect();
    let ret = create(ctx, ir, "func.return", &args, &[], (&[], None), loc);
    ir.append_op(exit, ret);
    for r in returns {
        let operands: Vec<ValueId> = ir.operands(r).collect();
        let block = ir.op_block(r).expect("a return has a block");
        let br = create(
            ctx,
            ir,
            "cf.br",
            &operands,
            &[],
            (&[exit], None),
            ir.op_loc(r),
        );
        ir.erase_op(r);
        ir.append_op(block, br);
    }
}

/// The control-flow graph of a region, its dominators and natural loops.
struct Cfg {
    /// The blocks, the entry first.
    blocks: Vec<BlockId>,
    index: FxHashMap<BlockId, usize>,
    succ: Vec<Vec<usize>>,
    preds: Vec<Vec<usize>>,
    /// The loop each header heads: its blocks.
    loops: FxHashMap<usize, FxHashSet<usize>>,
    /// Each block's terminator's location.
    locs: Vec<Attr>,
    /// Each block's dominators.
    dom: Vec<FxHashSet<usize>>,
}

impl Cfg {
    fn build(ctx: &Context, ir: &Ir, region: silica_ir::RegionId) -> Res<Cfg> {
        let blocks: Vec<BlockId> = ir.region_blocks(region).collect();
        let index: FxHashMap<BlockId, usize> =
            blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let n = blocks.len();
        let mut succ = vec![Vec::new(); n];
        let mut preds = vec![Vec::new(); n];
        for (i, &b) in blocks.iter().enumerate() {
            let Some(t) = ir.last_op(b) else { continue };
            let name = ctx.str(ir.op_name(t));
            if !ir.successors(t).is_empty() && name != "cf.br" && name != "cf.cond_br" {
                return Err(unstructured(ir, t, &format!("'{name}' ends a block")));
            }
            for s in ir.successors(t) {
                let j = index[s];
                succ[i].push(j);
                preds[j].push(i);
            }
        }
        let dom = dominators(&succ, &preds);
        let mut loops: FxHashMap<usize, FxHashSet<usize>> = FxHashMap::default();
        // Retreating edges of a depth-first search: back edges where the
        // target dominates the source, else the cycle is irreducible.
        let mut state = vec![0u8; n];
        let mut stack = vec![(0usize, 0usize)];
        state[0] = 1;
        while let Some(&mut (u, ref mut next)) = stack.last_mut() {
            if *next < succ[u].len() {
                let v = succ[u][*next];
                *next += 1;
                match state[v] {
                    0 => {
                        state[v] = 1;
                        stack.push((v, 0));
                    }
                    1 => {
                        if !dom[u].contains(&v) {
                            let t = ir.last_op(blocks[u]).expect("a branch");
                            return Err(unstructured(
                                ir,
                                t,
                                "a cycle entered at more than one block (irreducible)",
                            ));
                        }
                        let body = loops.entry(v).or_default();
                        body.insert(v);
                        let mut work = vec![u];
                        while let Some(w) = work.pop() {
                            if body.insert(w) {
                                work.extend(preds[w].iter().copied());
                            }
                        }
                    }
                    _ => {}
                }
            } else {
                state[u] = 2;
                stack.pop();
            }
        }
        let locs = blocks
            .iter()
            .map(|&b| {
                ir.last_op(b).map_or_else(
                    || ir.op_loc(ir.region_op(region).expect("a function's region")),
                    |t| ir.op_loc(t),
                )
            })
            .collect();
        Ok(Cfg {
            blocks,
            index,
            succ,
            preds,
            loops,
            locs,
            dom,
        })
    }

    /// Whether the loop headed by `h` has the shape [`Structurer`] lifts:
    /// one exit edge, a conditional branch to a block entered only from
    /// it, and every back edge from there unless the test is the
    /// header's.
    fn simple(&self, ctx: &Context, ir: &Ir, h: usize) -> bool {
        let body = &self.loops[&h];
        let mut exits = Vec::new();
        let mut latches = Vec::new();
        for &u in body {
            for &v in &self.succ[u] {
                if !body.contains(&v) {
                    exits.push((u, v));
                } else if v == h {
                    latches.push(u);
                }
            }
        }
        let [(x, e)] = exits[..] else {
            return false;
        };
        let branch = ir
            .last_op(self.blocks[x])
            .is_some_and(|t| ctx.str(ir.op_name(t)) == "cf.cond_br");
        branch && self.preds[e].len() == 1 && (x == h || latches.iter().all(|&l| l == x))
    }

    /// The one edge leaving the loop headed by `h`: its source and target.
    fn exit(&self, h: usize) -> Res<(usize, usize)> {
        let body = &self.loops[&h];
        let mut exits = Vec::new();
        let mut members: Vec<usize> = body.iter().copied().collect();
        members.sort_unstable();
        for u in members {
            for &v in &self.succ[u] {
                if !body.contains(&v) {
                    exits.push((u, v));
                }
            }
        }
        match exits[..] {
            [e] => Ok(e),
            _ => Err(Box::new(Diagnostic::error(
                self.locs[h],
                format!(
                    "control flow that silica hls cannot lift to structured loops and conditionals: the loop at this branch has {} exits",
                    exits.len()
                ),
            ))),
        }
    }
}

/// The dominators of every block (entry 0), by the iterative data-flow
/// equations.
fn dominators(succ: &[Vec<usize>], preds: &[Vec<usize>]) -> Vec<FxHashSet<usize>> {
    let n = succ.len();
    let all: FxHashSet<usize> = (0..n).collect();
    let mut dom = vec![all; n];
    dom[0] = std::iter::once(0).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for v in 1..n {
            let mut d: Option<FxHashSet<usize>> = None;
            for &p in &preds[v] {
                d = Some(match d {
                    None => dom[p].clone(),
                    Some(d) => d.intersection(&dom[p]).copied().collect(),
                });
            }
            let mut d = d.unwrap_or_default();
            d.insert(v);
            if d != dom[v] {
                dom[v] = d;
                changed = true;
            }
        }
    }
    dom
}

struct Structurer<'a> {
    ctx: &'a mut Context,
    ir: &'a mut Ir,
    cfg: Cfg,
    /// The blocks whose ops are emitted.
    taken: FxHashSet<usize>,
}

impl Structurer<'_> {
    /// Block `b`'s terminator; an error where the block was emitted
    /// already (reached from places that do not nest).
    fn terminator(&self, b: usize) -> Res<OpId> {
        self.ir.last_op(self.cfg.blocks[b]).ok_or_else(|| {
            Box::new(Diagnostic::error(
                self.cfg.locs[b],
                "control flow that silica hls cannot lift to structured loops and conditionals: a block reached twice",
            ))
        })
    }

    /// Block `b`'s arguments replaced by `args`, its ops but the
    /// terminator moved to the end of `dest`; an error where `b` was
    /// emitted already (reached from two places that do not nest).
    fn take(&mut self, b: usize, args: &[ValueId], dest: BlockId) -> Res<()> {
        let block = self.cfg.blocks[b];
        if !self.taken.insert(b) {
            return Err(Box::new(Diagnostic::error(
                self.cfg.locs[b],
                "control flow that silica hls cannot lift to structured loops and conditionals: a block reached from places whose branches do not meet there",
            )));
        }
        let params = self.ir.block_args(block).to_vec();
        for (&p, &a) in params.iter().zip(args) {
            if p != a {
                self.ir.replace_all_uses(p, a);
            }
        }
        if block == dest {
            return Ok(());
        }
        let ops: Vec<OpId> = self.ir.block_ops(block).collect();
        for &op in &ops[..ops.len() - 1] {
            self.ir.detach_op(op);
            self.ir.append_op(dest, op);
        }
        Ok(())
    }

    /// Emits into `dest` the code from block `start` (entered with
    /// `args`) up to an edge into `stop`, whose arguments it gives (`None`
    /// where the code returns); `header` is the loop being emitted.
    fn emit(
        &mut self,
        start: usize,
        args: Vec<ValueId>,
        stop: Option<usize>,
        dest: BlockId,
        header: Option<usize>,
    ) -> Res<Option<Vec<ValueId>>> {
        let (mut cur, mut args) = (start, args);
        loop {
            if self.cfg.loops.contains_key(&cur) && Some(cur) != header {
                let (exit, exit_args) = self.emit_loop(cur, &args, dest)?;
                if Some(exit) == stop {
                    return Ok(Some(exit_args));
                }
                (cur, args) = (exit, exit_args);
                continue;
            }
            self.take(cur, &args, dest)?;
            let t = self.terminator(cur)?;
            let name = self.ctx.str(self.ir.op_name(t)).to_string();
            match name.as_str() {
                "cf.br" => {
                    let s = self.cfg.index[&self.ir.successors(t)[0]];
                    let a = edge_args(self.ctx, self.ir, t, 0);
                    self.ir.erase_op(t);
                    if Some(s) == stop {
                        return Ok(Some(a));
                    }
                    self.check_entered(t, s, header)?;
                    (cur, args) = (s, a);
                }
                "cf.cond_br" => {
                    let join = self.join(cur, stop, header, t)?;
                    let results = self.emit_if(t, join, header, dest)?;
                    if Some(join) == stop {
                        return Ok(Some(results));
                    }
                    self.check_entered(t, join, header)?;
                    (cur, args) = (join, results);
                }
                _ => {
                    // The return: moved last.
                    self.ir.detach_op(t);
                    self.ir.append_op(dest, t);
                    return match stop {
                        None => Ok(None),
                        Some(_) => Err(unstructured(
                            self.ir,
                            t,
                            "a return inside a loop or a branch",
                        )),
                    };
                }
            }
        }
    }

    /// Checks that block `s`, reached by branch `t` of a straight path or
    /// as a join, is not a header's back edge.
    fn check_entered(&self, t: OpId, s: usize, header: Option<usize>) -> Res<()> {
        if Some(s) == header {
            return Err(unstructured(
                self.ir,
                t,
                "a back edge that does not pass the loop's exit test",
            ));
        }
        Ok(())
    }

    /// `cf.cond_br` `t` as an `scf.if` appended to `dest` whose branches
    /// run up to `join`; gives its results (the arguments into `join`).
    fn emit_if(
        &mut self,
        t: OpId,
        join: usize,
        header: Option<usize>,
        dest: BlockId,
    ) -> Res<Vec<ValueId>> {
        let loc = self.ir.op_loc(t);
        let cond = self.ir.operand(t, 0);
        let successors = self.ir.successors(t).to_vec();
        let edges: Vec<Vec<ValueId>> = (0..2).map(|i| edge_args(self.ctx, self.ir, t, i)).collect();
        let types: Vec<Type> = self
            .ir
            .block_args(self.cfg.blocks[join])
            .iter()
            .map(|&a| self.ir.value_type(a))
            .collect();
        self.ir.erase_op(t);
        let mut regions = Vec::new();
        for (succ, edge) in successors.iter().zip(edges) {
            let region = self.ir.create_region();
            let block = self.ir.create_block();
            self.ir.append_block(region, block);
            let s = self.cfg.index[succ];
            let yielded = if s == join {
                edge
            } else {
                self.check_entered(t, s, header)?;
                self.emit(s, edge, Some(join), block, header)?
                    .ok_or_else(|| unstructured(self.ir, t, "a branch that returns"))?
            };
            let y = create(
                self.ctx,
                self.ir,
                "scf.yield",
                &yielded,
                &[],
                (&[], None),
                loc,
            );
            self.ir.append_op(block, y);
            regions.push(region);
        }
        let name = self.ctx.sym("scf.if");
        let attrs = self.ctx.empty_dict();
        let op = self.ir.create_op(OpSpec {
            name,
            loc,
            operands: &[cond],
            result_types: &types,
            successors: &[],
            regions: &regions,
            attrs,
            props: None,
        });
        self.ir.append_op(dest, op);
        Ok(self.ir.results(op).collect())
    }

    /// The loop headed by `h`, entered with `inits`, as an `scf.while`
    /// appended to `dest`; gives the block after the loop and the
    /// arguments it is entered with.
    fn emit_loop(
        &mut self,
        h: usize,
        inits: &[ValueId],
        dest: BlockId,
    ) -> Res<(usize, Vec<ValueId>)> {
        let (x, exit) = self.cfg.exit(h)?;
        let t = self.terminator(x)?;
        if self.ctx.str(self.ir.op_name(t)) != "cf.cond_br" || self.cfg.preds[exit].len() != 1 {
            return Err(unstructured(
                self.ir,
                t,
                "a loop exit that is not a conditional branch to a block entered only from it",
            ));
        }
        let loc = self.ir.op_loc(t);
        let header_block = self.cfg.blocks[h];
        let before = self.ir.create_block();
        let before_args: Vec<ValueId> = self
            .ir
            .block_args(header_block)
            .to_vec()
            .iter()
            .map(|&a| {
                let ty = self.ir.value_type(a);
                self.ir.add_block_arg(before, ty, Some(loc))
            })
            .collect();
        // From the header to the exit test.
        if x == h {
            self.take(h, &before_args, before)?;
        } else {
            let at_test = self
                .emit(h, before_args, Some(x), before, Some(h))?
                .ok_or_else(|| unstructured(self.ir, t, "a return inside a loop"))?;
            self.take(x, &at_test, before)?;
        }
        let t = self.terminator(x)?;
        let successors = self.ir.successors(t).to_vec();
        let exits_on_true = self.cfg.index[&successors[0]] == exit;
        let (inside, stay, leave) = if exits_on_true {
            (
                successors[1],
                edge_args(self.ctx, self.ir, t, 1),
                edge_args(self.ctx, self.ir, t, 0),
            )
        } else {
            (
                successors[0],
                edge_args(self.ctx, self.ir, t, 0),
                edge_args(self.ctx, self.ir, t, 1),
            )
        };
        let mut cond = self.ir.operand(t, 0);
        self.ir.erase_op(t);
        if exits_on_true {
            let i1 = self.ctx.signless(1);
            let c = constant(self.ctx, self.ir, i1, 1, loc);
            self.ir.append_op(before, c);
            let one = self.ir.result(c, 0);
            let not = create(
                self.ctx,
                self.ir,
                "arith.xori",
                &[cond, one],
                &[i1],
                (&[], None),
                loc,
            );
            self.ir.append_op(before, not);
            cond = self.ir.result(not, 0);
        }
        // What the condition forwards: the arguments of both edges, and
        // the values of the `before` region used after it.
        let mut forwarded = stay.clone();
        forwarded.extend(&leave);
        let escaping = self.escaping(before);
        forwarded.extend(&escaping);
        let types: Vec<Type> = forwarded.iter().map(|&v| self.ir.value_type(v)).collect();
        let mut condition_operands = vec![cond];
        condition_operands.extend(&forwarded);
        let c = create(
            self.ctx,
            self.ir,
            "scf.condition",
            &condition_operands,
            &[],
            (&[], None),
            loc,
        );
        self.ir.append_op(before, c);
        let after = self.ir.create_block();
        let after_args: Vec<ValueId> = types
            .iter()
            .map(|&ty| self.ir.add_block_arg(after, ty, Some(loc)))
            .collect();
        let regions = [self.ir.create_region(), self.ir.create_region()];
        self.ir.append_block(regions[0], before);
        self.ir.append_block(regions[1], after);
        let name = self.ctx.sym("scf.while");
        let attrs = self.ctx.empty_dict();
        let op = self.ir.create_op(OpSpec {
            name,
            loc,
            operands: inits,
            result_types: &types,
            successors: &[],
            regions: &regions,
            attrs,
            props: None,
        });
        self.ir.append_op(dest, op);
        let results: Vec<ValueId> = self.ir.results(op).collect();
        // Values of `before` used later: in the loop, the `do` region's
        // arguments; after it, the loop's results.
        let body = self.cfg.loops[&h].clone();
        for (k, &v) in escaping.iter().enumerate() {
            let k = k + stay.len() + leave.len();
            self.redirect(v, before, &body, (after_args[k], results[k]));
        }
        // The rest of the loop, back to the header.
        let stay_args = after_args[..stay.len()].to_vec();
        let next = if self.cfg.index[&inside] == h {
            stay_args
        } else {
            let s = self.cfg.index[&inside];
            self.emit(s, stay_args, Some(h), after, Some(h))?
                .ok_or_else(|| unstructured(self.ir, c, "a return inside a loop"))?
        };
        let y = create(self.ctx, self.ir, "scf.yield", &next, &[], (&[], None), loc);
        self.ir.append_op(after, y);
        let leave_results = results[stay.len()..stay.len() + leave.len()].to_vec();
        Ok((exit, leave_results))
    }

    /// The arguments and top-level results of `block` used outside it.
    fn escaping(&self, block: BlockId) -> Vec<ValueId> {
        let mut values: Vec<ValueId> = self.ir.block_args(block).to_vec();
        for op in self.ir.block_ops(block) {
            values.extend(self.ir.results(op));
        }
        values
            .into_iter()
            .filter(|&v| {
                self.ir
                    .uses(v)
                    .any(|u| !self.within(self.ir.use_owner(u), block))
            })
            .collect()
    }

    /// Whether `op` is in `block` or nested in one of its ops.
    fn within(&self, op: OpId, block: BlockId) -> bool {
        let mut cur = Some(op);
        while let Some(o) = cur {
            if self.ir.op_block(o) == Some(block) {
                return true;
            }
            cur = self.ir.parent_op(o);
        }
        false
    }

    /// The uses of `v` outside `before`: in a block of the loop `body`,
    /// `inside`; elsewhere `after`.
    fn redirect(
        &mut self,
        v: ValueId,
        before: BlockId,
        body: &FxHashSet<usize>,
        (inside, after): (ValueId, ValueId),
    ) {
        let users: Vec<OpId> = self.ir.uses(v).map(|u| self.ir.use_owner(u)).collect();
        for user in users {
            if self.within(user, before) {
                continue;
            }
            let to = match self.home(user) {
                Some(b) if body.contains(&b) => inside,
                _ => after,
            };
            let n = self.ir.operands(user).len();
            for i in 0..n {
                if self.ir.operand(user, i) == v {
                    self.ir.set_operand(user, i, to);
                }
            }
        }
    }

    /// The block of the function's control-flow graph that holds `op`,
    /// where it is not emitted yet.
    fn home(&self, op: OpId) -> Option<usize> {
        let mut cur = Some(op);
        while let Some(o) = cur {
            if let Some(b) = self.ir.op_block(o) {
                if let Some(&i) = self.cfg.index.get(&b) {
                    return Some(i);
                }
            }
            cur = self.ir.parent_op(o);
        }
        None
    }

    /// Where the branches of block `b`'s conditional branch `t` meet: its
    /// immediate post-dominator among the blocks before `stop`, an inner
    /// loop standing for its exit and `header` ending its back edges.
    fn join(&self, b: usize, stop: Option<usize>, header: Option<usize>, t: OpId) -> Res<usize> {
        let mut memo: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
        let mut visiting = FxHashSet::default();
        let pdom = self.post_dominators(b, (stop, header), &mut memo, &mut visiting, t)?;
        pdom.iter()
            .copied()
            .filter(|&n| n != b)
            .max_by_key(|n| memo.get(n).map_or(0, Vec::len))
            .ok_or_else(|| unstructured(self.ir, t, "branches that do not meet again"))
    }

    /// The post-dominators of `u` (sorted) in the graph [`Self::join`]
    /// describes.
    fn post_dominators(
        &self,
        u: usize,
        ends: (Option<usize>, Option<usize>),
        memo: &mut FxHashMap<usize, Vec<usize>>,
        visiting: &mut FxHashSet<usize>,
        t: OpId,
    ) -> Res<Vec<usize>> {
        if let Some(p) = memo.get(&u) {
            return Ok(p.clone());
        }
        if !visiting.insert(u) {
            return Err(unstructured(self.ir, t, "a cycle that is not a loop"));
        }
        let (stop, header) = ends;
        let succ: Vec<usize> = if Some(u) == stop {
            Vec::new()
        } else if self.cfg.loops.contains_key(&u) && Some(u) != header {
            vec![self.cfg.exit(u)?.1]
        } else {
            self.cfg.succ[u].clone()
        };
        let mut acc: Option<Vec<usize>> = None;
        for s in succ {
            let p = if Some(s) == header {
                vec![s]
            } else {
                self.post_dominators(s, ends, memo, visiting, t)?
            };
            acc = Some(match acc {
                None => p,
                Some(a) => a.into_iter().filter(|x| p.contains(x)).collect(),
            });
        }
        let mut p = acc.unwrap_or_default();
        p.push(u);
        p.sort_unstable();
        p.dedup();
        visiting.remove(&u);
        memo.insert(u, p.clone());
        Ok(p)
    }
}
