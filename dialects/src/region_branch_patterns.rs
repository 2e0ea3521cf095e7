//! Canonicalizations of any region-branch op, from how values flow
//! through it (its [`RegionBranchDef`]), as MLIR applies them to `scf`'s
//! region ops: a result or region argument that can only ever hold one
//! value from outside the op is replaced by that value, and results and
//! region arguments nothing uses are dropped together with the operands
//! that feed them. Regions move to a rebuilt op whole, so the ops in them
//! are not revisited.

use rustc_hash::{FxHashMap, FxHashSet};
use silica_ir::dialect::{RegionBranchDef, RegionPoint};
use silica_ir::rewrite::Rewriter;
use silica_ir::{BlockId, Context, Ir, OpId, OpSpec, ValueId};

/// An operand that forwards a value: its owner (the op or one of its
/// region terminators) and index.
type Slot = (OpId, usize);

/// The values an op's control edges carry: each successor input (a
/// result or a region's entry argument) and the operands feeding it.
struct Flow {
    inputs: Vec<ValueId>,
    sources: Vec<Vec<Slot>>,
}

fn region_branch(ctx: &Context, ir: &Ir, op: OpId) -> Option<&'static RegionBranchDef> {
    ctx.op_def(ir.op_name(op)).and_then(|d| d.region_branch)
}

/// Where the `input`-th value of an edge of `op` to `to` lands: a result
/// of `op`, or an entry block argument of the region.
pub(crate) fn edge_input(ir: &Ir, op: OpId, to: RegionPoint, input: usize) -> Option<ValueId> {
    match to {
        RegionPoint::Parent => ir.results(op).nth(input),
        RegionPoint::Region(r) => ir
            .regions(op)
            .nth(r)
            .and_then(|r| ir.entry_block(r))
            .and_then(|b| ir.block_args(b).get(input).copied()),
    }
}

fn flow(ctx: &Context, ir: &Ir, op: OpId, def: &RegionBranchDef) -> Flow {
    let mut edges: Vec<(OpId, silica_ir::dialect::RegionEdge)> = (def.entry_edges)(ctx, ir, op)
        .into_iter()
        .map(|e| (op, e))
        .collect();
    for (i, r) in ir.regions(op).enumerate() {
        for b in ir.region_blocks(r) {
            let Some(t) = ir.last_op(b) else { continue };
            if let Some(out) = (def.exit_edges)(ctx, ir, op, i, t) {
                edges.extend(out.into_iter().map(|e| (t, e)));
            }
        }
    }
    let mut index: FxHashMap<ValueId, usize> = FxHashMap::default();
    let mut f = Flow {
        inputs: Vec::new(),
        sources: Vec::new(),
    };
    for (owner, e) in edges {
        for (operand, input) in e.operands.zip(e.inputs) {
            let Some(value) = edge_input(ir, op, e.to, input) else {
                continue;
            };
            if operand >= ir.num_operands(owner) {
                continue;
            }
            let i = *index.entry(value).or_insert_with(|| {
                f.inputs.push(value);
                f.sources.push(Vec::new());
                f.inputs.len() - 1
            });
            if !f.sources[i].contains(&(owner, operand)) {
                f.sources[i].push((owner, operand));
            }
        }
    }
    f
}

/// Whether `v` is defined inside `op`'s regions.
fn defined_inside(ir: &Ir, v: ValueId, op: OpId) -> bool {
    ir.value_block(v)
        .and_then(|b| ir.block_region(b))
        .and_then(|r| ir.region_op(r))
        .is_some_and(|owner| ir.is_ancestor(op, owner))
}

/// Replaces each used successor input that can only hold one value
/// defined outside the op with that value.
pub(crate) fn make_inputs_dead(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(def) = region_branch(rw.ctx, rw.ir, op) else {
        return false;
    };
    let f = flow(rw.ctx, rw.ir, op, def);
    let position: FxHashMap<ValueId, usize> =
        f.inputs.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let mut changed = false;
    for (i, &input) in f.inputs.iter().enumerate() {
        if !rw.ir.has_uses(input) {
            continue;
        }
        // The values outside the op's inputs that can reach `input`.
        let mut seen = FxHashSet::default();
        let mut stack = vec![i];
        let mut reached: Vec<ValueId> = Vec::new();
        while let Some(k) = stack.pop() {
            if !seen.insert(k) {
                continue;
            }
            for &(owner, operand) in &f.sources[k] {
                let v = rw.ir.operand(owner, operand);
                match position.get(&v) {
                    Some(&j) => stack.push(j),
                    None if !reached.contains(&v) => reached.push(v),
                    None => {}
                }
            }
        }
        if let [v] = reached[..] {
            if !defined_inside(rw.ir, v, op) && v != input {
                rw.replace_all_uses(input, v);
                changed = true;
            }
        }
    }
    changed
}

/// Which block or op an input belongs to (inputs can only stand for each
/// other within one).
fn input_owner(ir: &Ir, v: ValueId) -> (bool, Option<BlockId>) {
    match ir.value_def(v) {
        silica_ir::ValueDef::Argument { block, .. } => (false, Some(block)),
        _ => (true, None),
    }
}

/// Replaces the uses of a successor input that always receives the same
/// values as an earlier one of the same kind (both results, or both
/// arguments of one block) with that earlier input.
pub(crate) fn remove_duplicate_inputs(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(def) = region_branch(rw.ctx, rw.ir, op) else {
        return false;
    };
    let f = flow(rw.ctx, rw.ir, op, def);
    let ir = &*rw.ir;
    let same_values = |a: usize, b: usize| {
        let (sa, sb) = (&f.sources[a], &f.sources[b]);
        sa.len() == sb.len()
            && sa
                .iter()
                .zip(sb)
                .all(|(&(oa, ia), &(ob, ib))| oa == ob && ir.operand(oa, ia) == ir.operand(ob, ib))
    };
    for j in 0..f.inputs.len() {
        let later = f.inputs[j];
        if !ir.has_uses(later) || f.sources[j].is_empty() {
            continue;
        }
        let earlier = (0..j).find(|&i| {
            input_owner(ir, f.inputs[i]) == input_owner(ir, later)
                && ir.value_type(f.inputs[i]) == ir.value_type(later)
                && same_values(i, j)
        });
        if let Some(i) = earlier {
            let keep = f.inputs[i];
            rw.replace_all_uses(later, keep);
            return true;
        }
    }
    false
}

/// Drops the successor inputs nothing uses (but the operands feeding
/// them), with those operands; inputs fed by one operand go together.
pub(crate) fn remove_dead_inputs(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(def) = region_branch(rw.ctx, rw.ir, op) else {
        return false;
    };
    let f = flow(rw.ctx, rw.ir, op, def);
    let n = f.inputs.len();
    // Group the inputs that share a feeding operand.
    let mut group: Vec<usize> = (0..n).collect();
    fn find(g: &mut [usize], i: usize) -> usize {
        let mut r = i;
        while g[r] != r {
            r = g[r];
        }
        g[i] = r;
        r
    }
    let mut by_slot: FxHashMap<Slot, usize> = FxHashMap::default();
    for (i, srcs) in f.sources.iter().enumerate() {
        for &s in srcs {
            if let Some(&j) = by_slot.get(&s) {
                let (a, b) = (find(&mut group, i), find(&mut group, j));
                group[a] = b;
            } else {
                by_slot.insert(s, i);
            }
        }
    }
    let roots: Vec<usize> = (0..n).map(|i| find(&mut group, i)).collect();
    let mut dead_groups: FxHashSet<usize> = roots.iter().copied().collect();
    for (i, &input) in f.inputs.iter().enumerate() {
        let group_slots: FxHashSet<Slot> = (0..n)
            .filter(|&k| roots[k] == roots[i])
            .flat_map(|k| f.sources[k].iter().copied())
            .collect();
        let ir = &*rw.ir;
        let used_elsewhere = ir.uses(input).any(|u| {
            let owner = ir.use_owner(u);
            !ir.operands(owner)
                .enumerate()
                .any(|(j, v)| v == input && group_slots.contains(&(owner, j)))
        });
        if used_elsewhere {
            dead_groups.remove(&roots[i]);
        }
    }
    if dead_groups.is_empty() {
        return false;
    }
    let dead: Vec<usize> = (0..n)
        .filter(|&i| dead_groups.contains(&roots[i]))
        .collect();
    let mut slots: FxHashMap<OpId, Vec<usize>> = FxHashMap::default();
    for &i in &dead {
        for &(owner, operand) in &f.sources[i] {
            slots.entry(owner).or_default().push(operand);
        }
    }
    let dead_values: Vec<ValueId> = dead.iter().map(|&i| f.inputs[i]).collect();
    drop_dead(rw, op, &slots, &dead_values);
    true
}

/// Removes the operand `slots`, the dead region arguments and results of
/// `op` (rebuilding it when its operands or results change).
fn drop_dead(
    rw: &mut Rewriter<'_>,
    op: OpId,
    slots: &FxHashMap<OpId, Vec<usize>>,
    dead: &[ValueId],
) {
    for (&owner, indices) in slots {
        if owner == op {
            continue;
        }
        let kept: Vec<ValueId> = rw
            .ir
            .operands(owner)
            .enumerate()
            .filter(|(i, _)| !indices.contains(i))
            .map(|(_, v)| v)
            .collect();
        rw.ir.set_operands(owner, &kept);
        rw.modified(owner);
    }
    let dead: FxHashSet<ValueId> = dead.iter().copied().collect();
    let entries: Vec<BlockId> = rw
        .ir
        .regions(op)
        .filter_map(|r| rw.ir.entry_block(r))
        .collect();
    for b in entries {
        let args = rw.ir.block_args(b).to_vec();
        for (i, a) in args.into_iter().enumerate().rev() {
            if dead.contains(&a) {
                rw.ir.erase_block_arg(b, i);
            }
        }
    }
    let results: Vec<ValueId> = rw.ir.results(op).collect();
    let dropped_operands = slots.get(&op).cloned().unwrap_or_default();
    if dropped_operands.is_empty() && !results.iter().any(|r| dead.contains(r)) {
        rw.modified(op);
        return;
    }
    let operands: Vec<ValueId> = rw
        .ir
        .operands(op)
        .enumerate()
        .filter(|(i, _)| !dropped_operands.contains(i))
        .map(|(_, v)| v)
        .collect();
    let types: Vec<_> = results
        .iter()
        .filter(|r| !dead.contains(r))
        .map(|&r| rw.ir.value_type(r))
        .collect();
    let regions: Vec<_> = rw.ir.regions(op).collect();
    let new_regions = rw.ir.create_regions(regions.len());
    for (&from, &to) in regions.iter().zip(&new_regions) {
        let blocks: Vec<BlockId> = rw.ir.region_blocks(from).collect();
        for b in blocks {
            rw.ir.detach_block(b);
            rw.ir.append_block(to, b);
        }
    }
    let (name, loc, attrs, props) = (
        rw.ir.op_name(op),
        rw.ir.op_loc(op),
        rw.ir.op_attrs(op),
        rw.ir.op_props(op),
    );
    rw.set_insertion_point(op);
    let new = rw.create(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &types,
        successors: &[],
        regions: &new_regions,
        attrs,
        props,
    });
    let mut next = rw.ir.results(new);
    let values: Vec<ValueId> = results
        .iter()
        .map(|&r| {
            if dead.contains(&r) {
                r
            } else {
                next.next().expect("kept result")
            }
        })
        .collect();
    rw.replace_op(op, &values);
}
