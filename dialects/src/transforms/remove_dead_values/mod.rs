//! `remove-dead-values`: removes what no live value needs, from a whole
//! module's liveness ([`liveness`]) rather than local patterns. Ops
//! without memory effects whose results are all dead are erased (region
//! ops included); the operands a region-branch op forwards only to dead
//! block arguments and results become `ub.poison` (the arguments and
//! results themselves stay, so the op keeps its shape); dead arguments of
//! branch targets are dropped with the operands passed to them; a branch
//! whose condition is dead (it is never reached) becomes
//! `ub.unreachable`; private functions lose their dead arguments and the
//! results no caller uses, at every call. With `canonicalize=1` the
//! region-branch ops left are then canonicalized, and nothing else.

mod calls;
mod liveness;

use calls::CallGraph;
use liveness::{region_branch, region_exits, Liveness};
use rustc_hash::FxHashSet;
use silica_ir::dialect::{inherent_attr, set_inherent_attr, Traits};
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::rewrite::effects::is_memory_effect_free;
use silica_ir::rewrite::{
    apply_op_patterns_greedily, GreedyConfig, NoListener, PatternSet, Rewriter,
};
use silica_ir::{AttrKind, BlockId, Context, Diagnostic, Ir, OpId, OpSpec, ValueId};

/// A fresh `ub.poison` of type `ty` just before `before`.
fn poison_before(ctx: &mut Context, ir: &mut Ir, before: OpId, ty: silica_ir::Type) -> ValueId {
    let loc = ir.op_loc(before);
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point(before);
    let value = crate::ub::poison_attr(rw.ctx);
    let op = crate::ub::materialize_constant(&mut rw, value, ty, loc).expect("poison of any type");
    rw.ir.result(op, 0)
}

/// Replaces the operands of `op` at `indices` with fresh poison values.
fn poison_operands(ctx: &mut Context, ir: &mut Ir, op: OpId, indices: &[usize]) {
    for &i in indices {
        let ty = ir.value_type(ir.operand(op, i));
        let p = poison_before(ctx, ir, op, ty);
        ir.set_operand(op, i, p);
    }
}

/// What the pass decided, before it changes anything.
#[derive(Default)]
struct Plan {
    /// Ops to erase, in IR order.
    erase: Vec<OpId>,
    /// Operands to replace with poison: (op, operand indices).
    poison: Vec<(OpId, Vec<usize>)>,
    /// Dead arguments of branch targets: (block, argument index).
    dead_block_args: Vec<(BlockId, usize)>,
    /// Branches never reached, to become `ub.unreachable`.
    unreachable: Vec<OpId>,
}

/// The operands of a region-branch op (or of one of its terminators)
/// forwarded only to dead values, given the edges they leave along.
fn dead_forwarded(
    ir: &Ir,
    op: OpId,
    edges: &[silica_ir::dialect::RegionEdge],
    live: &Liveness,
) -> Vec<usize> {
    let mut forwarded: Vec<usize> = Vec::new();
    let mut needed: FxHashSet<usize> = FxHashSet::default();
    for e in edges {
        for (operand, input) in e.operands.clone().zip(e.inputs.clone()) {
            forwarded.push(operand);
            let target = crate::region_branch_patterns::edge_input(ir, op, e.to, input);
            if target.is_none_or(|v| live.is_live(v)) {
                needed.insert(operand);
            }
        }
    }
    forwarded.sort_unstable();
    forwarded.dedup();
    forwarded.retain(|o| !needed.contains(o));
    forwarded
}

fn plan(ctx: &Context, ir: &Ir, root: OpId, live: &Liveness) -> Plan {
    let mut plan = Plan::default();
    let mut ops = Vec::new();
    ir.walk(root, &mut |o| ops.push(o));
    let mut erased: FxHashSet<OpId> = FxHashSet::default();
    let inside_erased = |ir: &Ir, erased: &FxHashSet<OpId>, o: OpId| {
        let mut cur = ir.parent_op(o);
        while let Some(p) = cur {
            if erased.contains(&p) {
                return true;
            }
            cur = ir.parent_op(p);
        }
        false
    };
    for &op in &ops {
        if op == root || inside_erased(ir, &erased, op) {
            continue;
        }
        let def = ctx.op_def(ir.op_name(op));
        let any_live = ir.results(op).any(|r| live.is_live(r));
        if let Some(rb) = region_branch(ctx, ir, op) {
            if !any_live && is_memory_effect_free(ctx, ir, op) {
                erased.insert(op);
                plan.erase.push(op);
                continue;
            }
            let entry = (rb.entry_edges)(ctx, ir, op);
            let dead = dead_forwarded(ir, op, &entry, live);
            if !dead.is_empty() {
                plan.poison.push((op, dead));
            }
            for (t, edges) in region_exits(ctx, ir, op, rb) {
                let dead = dead_forwarded(ir, op, &edges, live);
                if !dead.is_empty() {
                    plan.poison.push((t, dead));
                }
            }
            continue;
        }
        if let Some(branch) = def.and_then(|d| d.branch) {
            let forwarded: Vec<_> = (0..ir.successors(op).len())
                .map(|s| (branch.successor_operands)(ctx, ir, op, s))
                .collect();
            let controls = non_forwarded_branch(ir.num_operands(op), &forwarded);
            if !controls.is_empty() && controls.iter().all(|&i| !live.is_live(ir.operand(op, i))) {
                plan.unreachable.push(op);
            }
            continue;
        }
        let Some(def) = def else { continue };
        let keep = def.traits.has(Traits::TERMINATOR)
            || silica_ir::rewrite::effects::is_symbol(ctx, ir, op)
            || ir.num_regions(op) > 0 && def.traits.has(Traits::ISOLATED_FROM_ABOVE)
            || any_live
            || !is_memory_effect_free(ctx, ir, op);
        if !keep {
            erased.insert(op);
            plan.erase.push(op);
        }
    }
    for &op in &ops {
        for r in ir.regions(op) {
            for b in ir.region_blocks(r).skip(1) {
                if inside_erased(ir, &erased, ir.first_op(b).unwrap_or(op)) {
                    continue;
                }
                for (i, &a) in ir.block_args(b).iter().enumerate() {
                    if !live.is_live(a) {
                        plan.dead_block_args.push((b, i));
                    }
                }
            }
        }
    }
    plan
}

fn non_forwarded_branch(n: usize, forwarded: &[std::ops::Range<usize>]) -> Vec<usize> {
    (0..n)
        .filter(|i| !forwarded.iter().any(|r| r.contains(i)))
        .collect()
}

/// Replaces the remaining uses of `v` (by ops that are going away) with
/// poison placed before each user.
fn poison_uses(ctx: &mut Context, ir: &mut Ir, v: ValueId) {
    let mut users: Vec<OpId> = ir.uses(v).map(|u| ir.use_owner(u)).collect();
    users.dedup();
    for owner in users {
        let indices: Vec<usize> = ir
            .operands(owner)
            .enumerate()
            .filter(|&(_, x)| x == v)
            .map(|(i, _)| i)
            .collect();
        poison_operands(ctx, ir, owner, &indices);
    }
}

/// Drops the operands of `ops` and of the ops nested in them, so that
/// values used only by ops going away lose their uses first.
fn drop_operands(ir: &mut Ir, ops: &[OpId]) {
    for &op in ops {
        let mut nested = Vec::new();
        ir.walk(op, &mut |o| nested.push(o));
        for o in nested {
            ir.set_operands(o, &[]);
        }
    }
}

fn erase_ops(ctx: &mut Context, ir: &mut Ir, ops: &[OpId]) {
    for &op in ops.iter().rev() {
        if ir.is_erased(op) {
            continue;
        }
        for r in ir.results(op).collect::<Vec<_>>() {
            poison_uses(ctx, ir, r);
        }
        ir.erase_op(op);
    }
}

fn erase_block_args(ctx: &mut Context, ir: &mut Ir, dead: &[(BlockId, usize)]) {
    // The operands passed to them first (they may pass each other around).
    for &(block, index) in dead.iter().rev() {
        let Some(region) = ir.block_region(block) else {
            continue;
        };
        let blocks: Vec<BlockId> = ir.region_blocks(region).collect();
        for b in blocks {
            let Some(t) = ir.last_op(b) else { continue };
            let Some(branch) = ctx.op_def(ir.op_name(t)).and_then(|d| d.branch) else {
                continue;
            };
            let succs = ir.successors(t).to_vec();
            for (s, succ) in succs.into_iter().enumerate() {
                if succ == block {
                    (branch.erase_successor_operand)(ctx, ir, t, s, index);
                }
            }
        }
    }
    for &(block, index) in dead.iter().rev() {
        let arg = ir.block_args(block)[index];
        poison_uses(ctx, ir, arg);
        ir.erase_block_arg(block, index);
    }
}

/// Drops the entries of the array attribute `key` at `drop`.
fn drop_entries(ctx: &mut Context, ir: &mut Ir, f: OpId, key: &str, drop: &[bool]) {
    let Some(a) = inherent_attr(ctx, ir, f, key) else {
        return;
    };
    let AttrKind::Array(items) = ctx.attr_kind(a).clone() else {
        return;
    };
    let kept: Vec<_> = items
        .iter()
        .zip(drop)
        .filter(|(_, &d)| !d)
        .map(|(&x, _)| x)
        .collect();
    let arr = ctx.array_attr(&kept);
    set_inherent_attr(ctx, ir, f, key, arr);
}

/// What an internal function loses: its dead arguments and the results
/// no call uses.
struct FunctionCut {
    func: OpId,
    dead_args: Vec<bool>,
    dead_results: Vec<bool>,
}

fn function_cut(
    ctx: &Context,
    ir: &Ir,
    calls: &CallGraph,
    f: OpId,
    live: &Liveness,
) -> Option<FunctionCut> {
    let (_, outs) = crate::func::function_type(ctx, ir, f)?;
    let entry = ir.regions(f).next().and_then(|r| ir.entry_block(r))?;
    let dead_args = ir
        .block_args(entry)
        .iter()
        .map(|&a| !live.is_live(a))
        .collect();
    let call_sites = calls.calls_of(f);
    let dead_results = (0..outs.len())
        .map(|i| {
            call_sites
                .iter()
                .all(|&c| i >= ir.num_results(c) || !live.is_live(ir.result(c, i)))
        })
        .collect();
    Some(FunctionCut {
        func: f,
        dead_args,
        dead_results,
    })
}

/// Drops what `cut` removes from the returns and the calls of its
/// function.
fn cut_returns_and_calls(ctx: &mut Context, ir: &mut Ir, calls: &CallGraph, cut: &FunctionCut) {
    let n = cut.dead_results.len();
    for ret in calls.returns(ir, cut.func) {
        if ir.num_operands(ret) != n {
            continue;
        }
        let kept: Vec<ValueId> = ir
            .operands(ret)
            .zip(&cut.dead_results)
            .filter(|(_, &d)| !d)
            .map(|(v, _)| v)
            .collect();
        ir.set_operands(ret, &kept);
    }
    for &call in calls.calls_of(cut.func) {
        let kept: Vec<ValueId> = ir
            .operands(call)
            .enumerate()
            .filter(|&(i, _)| !cut.dead_args.get(i).copied().unwrap_or(false))
            .map(|(_, v)| v)
            .collect();
        ir.set_operands(call, &kept);
        if cut.dead_results.iter().any(|&d| d) {
            drop_call_results(ctx, ir, call, &cut.dead_results);
        }
    }
}

/// Drops the dead arguments of `cut`'s function and updates its type.
fn cut_signature(ctx: &mut Context, ir: &mut Ir, cut: &FunctionCut) {
    let Some((ins, outs)) = crate::func::function_type(ctx, ir, cut.func) else {
        return;
    };
    let Some(entry) = ir.regions(cut.func).next().and_then(|r| ir.entry_block(r)) else {
        return;
    };
    let args = ir.block_args(entry).to_vec();
    for (i, &a) in args.iter().enumerate().rev() {
        if cut.dead_args[i] {
            poison_uses(ctx, ir, a);
            ir.erase_block_arg(entry, i);
        }
    }
    let keep = |types: &[silica_ir::Type], dead: &[bool]| -> Vec<silica_ir::Type> {
        types
            .iter()
            .zip(dead)
            .filter(|(_, &d)| !d)
            .map(|(&t, _)| t)
            .collect()
    };
    let fty = ctx.function_type(&keep(&ins, &cut.dead_args), &keep(&outs, &cut.dead_results));
    let fty = ctx.intern_attr(AttrKind::Type(fty));
    set_inherent_attr(ctx, ir, cut.func, "function_type", fty);
    drop_entries(ctx, ir, cut.func, "arg_attrs", &cut.dead_args);
    drop_entries(ctx, ir, cut.func, "res_attrs", &cut.dead_results);
}

/// Rebuilds `call` without the results marked in `drop`.
fn drop_call_results(ctx: &mut Context, ir: &mut Ir, call: OpId, drop: &[bool]) {
    let results: Vec<ValueId> = ir.results(call).collect();
    let types: Vec<_> = results
        .iter()
        .zip(drop)
        .filter(|(_, &d)| !d)
        .map(|(&r, _)| ir.value_type(r))
        .collect();
    let operands: Vec<ValueId> = ir.operands(call).collect();
    let (name, loc, attrs, props) = (
        ir.op_name(call),
        ir.op_loc(call),
        ir.op_attrs(call),
        ir.op_props(call),
    );
    let new = ir.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &types,
        successors: &[],
        regions: &[],
        attrs,
        props,
    });
    ir.insert_op_after(call, new);
    let mut next = 0;
    for (&r, &d) in results.iter().zip(drop) {
        if d {
            poison_uses(ctx, ir, r);
        } else {
            let to = ir.result(new, next);
            ir.replace_all_uses(r, to);
            next += 1;
        }
    }
    ir.erase_op(call);
}

/// Removes the dead values under `root`; canonicalizes the region-branch
/// ops left when `canonicalize`.
pub fn remove_dead_values(ctx: &mut Context, ir: &mut Ir, root: OpId, canonicalize: bool) {
    let calls = CallGraph::build(ctx, ir, root);
    let entries = calls.entries(ctx, ir, root);
    let executable = silica_ir::transforms::executable_blocks(ctx, ir, &entries, &|_, ir, op| {
        calls.entered_region(ir, op)
    });
    let live = liveness::analyze(ctx, ir, &calls, executable);
    let plan = plan(ctx, ir, root, &live);
    let cuts: Vec<FunctionCut> = calls
        .internal_funcs()
        .into_iter()
        .filter_map(|f| function_cut(ctx, ir, &calls, f, &live))
        .collect();
    // Uses go before the values they use: values are only ever left
    // without users, and erased last.
    for (op, indices) in &plan.poison {
        poison_operands(ctx, ir, *op, indices);
    }
    drop_operands(ir, &plan.erase);
    for cut in &cuts {
        cut_returns_and_calls(ctx, ir, &calls, cut);
    }
    erase_block_args(ctx, ir, &plan.dead_block_args);
    for &br in &plan.unreachable {
        let loc = ir.op_loc(br);
        let mut listener = NoListener;
        let mut rw = Rewriter::new(ctx, ir, &mut listener);
        rw.set_insertion_point(br);
        rw.create_simple("ub.unreachable", &[], &[], None, loc);
        rw.erase_op(br);
    }
    for cut in &cuts {
        cut_signature(ctx, ir, cut);
    }
    erase_ops(ctx, ir, &plan.erase);
    if canonicalize {
        let mut ops = Vec::new();
        ir.walk(root, &mut |o| {
            if region_branch(ctx, ir, o).is_some() {
                ops.push(o);
            }
        });
        let patterns = PatternSet::canonicalization(ctx, &[], &[]);
        apply_op_patterns_greedily(ctx, ir, &ops, &patterns, GreedyConfig::default());
    }
}

struct RemoveDeadValues {
    canonicalize: bool,
}

impl Pass for RemoveDeadValues {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        remove_dead_values(ctx, ir, op, self.canonicalize);
        Ok(())
    }
}

/// The `remove-dead-values` pass.
pub static REMOVE_DEAD_VALUES: PassInfo = PassInfo {
    argument: "remove-dead-values",
    name: "RemoveDeadValues",
    description: "Remove dead values",
    anchor: None,
    options: &[PassOptionInfo {
        name: "canonicalize",
        description:
            "Run the canonicalizer on the region branch ops whose dead values were removed",
        kind: OptionKind::Bool,
        default: "true",
    }],
    create: |o: &PassOptions| {
        Ok(Box::new(RemoveDeadValues {
            canonicalize: o.bool("canonicalize"),
        }))
    },
};
