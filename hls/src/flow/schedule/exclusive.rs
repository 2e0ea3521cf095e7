//! Accesses of one on-chip memory that never happen in the same
//! iteration merged into one access. An access whose bank is found at
//! run time is one access per bank it may reach (`front/partition.rs`):
//! a store predicated on its bank, a load whose value a multiplexer
//! selects on it. A copy loop moving two elements a cycle between a
//! cyclically partitioned buffer and a memory of two-element words so
//! has two accesses on every bank, although at most one of them is
//! needed in any iteration. Left apart, they take two ports of the bank
//! (or two cycles of one); merged, the bank's one access takes the address
//! (and data) of whichever access's condition holds, and the other port
//! is left to the tasks running beside it (`dataflow.rs`).
//!
//! Accesses of a block to the same memory, stores with a predicate or
//! loads whose only use is the multiplexer selecting them (of the same
//! form: all predicated, as inside an `affine.if`, or none), are merged
//! where no iteration of the loops around the block makes two of their
//! conditions hold and no store to the memory (for stores: no access)
//! comes between them. That is checked by walking those iterations (the
//! loops' bounds known at compile time, the conditions computed from the
//! counters alone, at most [`BUDGET`] values in all); a condition that
//! depends on data keeps its access apart. The merged access takes the
//! last one's place, and the block's nodes are put back in an order
//! where each comes after the values it reads.

use crate::flow::analysis::trips::{bound, value, DEPTH};
use crate::model::kernel::{Item, Kernel, LoopId, MemId, Node, NodeId, Op, Val};
use rustc_hash::{FxHashMap, FxHashSet};

/// Predicate values computed per kernel, at most.
const BUDGET: u64 = 1 << 18;

/// Merges the mutually exclusive accesses of every block of `k`.
pub fn merge_exclusive_accesses(k: &mut Kernel) {
    let mut budget = BUDGET;
    let around = loops_around_blocks(k);
    let selectors = selectors(k);
    let mut changed = false;
    for (b, loops) in around.iter().enumerate() {
        let Some(loops) = loops else { continue };
        let candidates = candidates(k, b, &selectors);
        if candidates.len() < 2 {
            continue;
        }
        let conditions: Vec<Val> = candidates.iter().map(|c| c.condition).collect();
        let Some(together) = held_together(k, loops, &conditions, &mut budget) else {
            continue;
        };
        let groups = groups(k, b, &candidates, &together);
        if groups.iter().any(|g| g.len() > 1) {
            merge(k, b, &groups);
            changed = true;
        }
    }
    if changed {
        k.compact();
    }
}

/// An access that may merge with others: when it is needed.
#[derive(Clone, Copy)]
struct Candidate {
    node: NodeId,
    /// A store's predicate; the condition on which a load's value is
    /// selected.
    condition: Val,
}

/// The condition selecting each load whose only use is as the chosen
/// arm of a multiplexer (`Mux(c, load, other)`).
fn selectors(k: &Kernel) -> FxHashMap<NodeId, Val> {
    let mut uses: FxHashMap<NodeId, u32> = FxHashMap::default();
    let mut count = |v: &Val| {
        if let Val::Node(n) = *v {
            *uses.entry(n).or_default() += 1;
        }
    };
    k.nodes
        .iter()
        .flat_map(|n| n.args.iter())
        .for_each(&mut count);
    k.other_vals().iter().for_each(&mut count);
    let mut out = FxHashMap::default();
    for n in k.blocks.iter().flatten() {
        let node = &k.nodes[*n];
        if node.op != Op::Mux {
            continue;
        }
        if let (Some(&c), Some(&Val::Node(l))) = (node.args.first(), node.args.get(1)) {
            if matches!(k.nodes[l].op, Op::Load(_)) && uses.get(&l) == Some(&1) {
                out.insert(l, c);
            }
        }
    }
    out
}

/// The accesses of block `b` to on-chip memories of one element a word
/// that may merge: stores with a predicate, loads with a selector, where
/// the block has another of the same kind on the same memory (only those
/// are worth walking the iterations for).
fn candidates(k: &Kernel, b: usize, selectors: &FxHashMap<NodeId, Val>) -> Vec<Candidate> {
    let on_chip = |m: MemId| k.memories[m].arg.is_none() && k.memories[m].lanes <= 1;
    let all: Vec<(Candidate, (MemId, bool))> = (k.blocks[b].iter().copied())
        .filter_map(|n| {
            let node = &k.nodes[n];
            let (condition, key) = match node.op {
                Op::Store(m) if on_chip(m) && node.args.len() == 3 => (node.args[2], (m, true)),
                Op::Load(m) if on_chip(m) && node.args.len() <= 2 => {
                    (*selectors.get(&n)?, (m, false))
                }
                _ => return None,
            };
            Some((Candidate { node: n, condition }, key))
        })
        .collect();
    let mut count: FxHashMap<(MemId, bool), u32> = FxHashMap::default();
    for (_, key) in &all {
        *count.entry(*key).or_default() += 1;
    }
    (all.into_iter())
        .filter(|(_, key)| count[key] > 1)
        .map(|(c, _)| c)
        .collect()
}

/// The loops around each block, outermost first (a flattened loop's
/// folded loops after it); none where one of them is a `while` loop.
pub(super) fn loops_around_blocks(k: &Kernel) -> Vec<Option<Vec<LoopId>>> {
    fn walk(
        k: &Kernel,
        items: &[Item],
        chain: &mut Vec<LoopId>,
        out: &mut Vec<Option<Vec<LoopId>>>,
    ) {
        for it in items {
            match *it {
                Item::Block(b) => out[b] = Some(chain.clone()),
                Item::Loop(l) => {
                    let depth = chain.len();
                    chain.push(l);
                    chain.extend(k.loops[l].flat.iter().copied());
                    walk(k, &k.loops[l].body, chain, out);
                    chain.truncate(depth);
                }
                Item::Call(_) | Item::Dma(_) => {}
            }
        }
    }
    let mut out = vec![None; k.blocks.len()];
    walk(k, &k.body, &mut Vec::new(), &mut out);
    for chain in &mut out {
        if (chain.iter().flatten()).any(|&l| k.loops[l].test.is_some()) {
            *chain = None;
        }
    }
    out
}

/// Which pairs of `conditions` hold in the same iteration of `loops`
/// (indices into `conditions`, the smaller first); none where a bound or
/// a condition is not known from the counters, or the walk would take
/// more than `budget` values.
fn held_together(
    k: &Kernel,
    loops: &[LoopId],
    conditions: &[Val],
    budget: &mut u64,
) -> Option<FxHashSet<(usize, usize)>> {
    let mut env: Vec<Option<i64>> = vec![None; k.loops.len()];
    let mut together = FxHashSet::default();
    walk_iterations(k, loops, &mut env, &mut |env| {
        *budget = budget.checked_sub(conditions.len() as u64)?;
        let mut held = Vec::new();
        for (i, &p) in conditions.iter().enumerate() {
            if value(k, env, p, DEPTH)? != 0 {
                held.push(i);
            }
        }
        for (x, &i) in held.iter().enumerate() {
            for &j in &held[x + 1..] {
                together.insert((i, j));
            }
        }
        Some(())
    })?;
    Some(together)
}

/// Calls `visit` at every iteration of `loops` (nested, outermost first);
/// none as soon as a bound is unknown or `visit` gives none.
pub(super) fn walk_iterations(
    k: &Kernel,
    loops: &[LoopId],
    env: &mut Vec<Option<i64>>,
    visit: &mut dyn FnMut(&[Option<i64>]) -> Option<()>,
) -> Option<()> {
    let Some((&l, inner)) = loops.split_first() else {
        return visit(env);
    };
    let lp = &k.loops[l];
    let (lo, hi) = (
        bound(k, env, &lp.lower, true)?,
        bound(k, env, &lp.upper, false)?,
    );
    let step = lp.step.max(1);
    let mut iv = lo;
    while iv < hi {
        env[l] = Some(iv);
        walk_iterations(k, inner, env, visit)?;
        iv += step;
    }
    env[l] = None;
    Some(())
}

/// The candidates of block `b` in groups to merge, in program order: an
/// access joins the open group of its memory and kind when its
/// condition never holds with theirs, their operands have its widths,
/// and no store to the memory (for a store: no access) came since.
fn groups(
    k: &Kernel,
    b: usize,
    candidates: &[Candidate],
    together: &FxHashSet<(usize, usize)>,
) -> Vec<Vec<Candidate>> {
    let index: FxHashMap<NodeId, usize> = (candidates.iter().enumerate())
        .map(|(i, c)| (c.node, i))
        .collect();
    let widths = |n: NodeId| -> Vec<u32> { k.nodes[n].args.iter().map(|&a| k.width(a)).collect() };
    // Per memory and kind (a store or not): the group open.
    let mut open: FxHashMap<(MemId, bool), Vec<Candidate>> = FxHashMap::default();
    let mut out = Vec::new();
    for &n in &k.blocks[b] {
        let Some(m) = k.nodes[n].op.memory() else {
            continue;
        };
        let store = matches!(k.nodes[n].op, Op::Store(_));
        let Some(&i) = index.get(&n) else {
            // Another access closes the stores' group; a store closes
            // the loads' too.
            out.extend(open.remove(&(m, true)));
            if store {
                out.extend(open.remove(&(m, false)));
            }
            continue;
        };
        if store {
            out.extend(open.remove(&(m, false)));
        } else {
            out.extend(open.remove(&(m, true)));
        }
        let group = open.entry((m, store)).or_default();
        let apart = group.iter().all(|g| {
            let j = index[&g.node];
            !together.contains(&(i.min(j), i.max(j))) && widths(g.node) == widths(n)
        });
        if !apart {
            out.push(std::mem::take(group));
        }
        group.push(candidates[i]);
    }
    out.extend(open.into_values());
    out.retain(|g| g.len() > 1);
    out
}

/// Replaces each group of block `b` by one access at the last one's
/// place, then orders the block's nodes after the values they read.
fn merge(k: &mut Kernel, b: usize, groups: &[Vec<Candidate>]) {
    let mut last_of: FxHashMap<NodeId, &Vec<Candidate>> = FxHashMap::default();
    let mut dropped: FxHashSet<NodeId> = FxHashSet::default();
    for g in groups {
        let (last, rest) = g.split_last().expect("a group of two");
        last_of.insert(last.node, g);
        dropped.extend(rest.iter().map(|c| c.node));
    }
    let order = std::mem::take(&mut k.blocks[b]);
    let mut out = Vec::with_capacity(order.len());
    let mut replaced: FxHashMap<NodeId, Val> = FxHashMap::default();
    for n in order {
        if dropped.contains(&n) {
            continue;
        }
        match last_of.get(&n) {
            Some(g) => {
                let merged = merged_access(k, b, g, &mut out);
                if matches!(k.nodes[n].op, Op::Load(_)) {
                    replaced.extend(g.iter().map(|c| (c.node, merged)));
                }
            }
            None => out.push(n),
        }
    }
    if !replaced.is_empty() {
        k.each_val_mut(&mut |v| {
            if let Val::Node(n) = v {
                if let Some(&r) = replaced.get(n) {
                    *v = r;
                }
            }
        });
    }
    k.blocks[b] = in_dependence_order(k, &out);
}

/// Emits into `out` the access of group `g`: the address (and data) of
/// the first access whose condition holds; a store's predicate the
/// conditions' or, a predicated load's the or of the loads' predicates.
fn merged_access(k: &mut Kernel, b: usize, g: &[Candidate], out: &mut Vec<NodeId>) -> Val {
    let last = g.last().expect("a group").node;
    let op = k.nodes[last].op;
    let store = matches!(op, Op::Store(_));
    let mut args = k.nodes[last].args.clone();
    let mut predicate = g.last().expect("a group").condition;
    for c in g[..g.len() - 1].iter().rev() {
        let theirs = k.nodes[c.node].args.clone();
        let mut pick = |k: &mut Kernel, i: usize, out: &mut Vec<NodeId>| {
            let width = k.width(theirs[i]);
            let node = (Op::Mux, vec![c.condition, theirs[i], args[i]], width);
            args[i] = emit(k, b, last, node, out);
        };
        pick(k, 0, out);
        if store {
            pick(k, 1, out);
            predicate = emit(k, b, last, (Op::Or, vec![c.condition, predicate], 1), out);
        } else if args.len() == 2 {
            // A predicated load reads when any of the loads would.
            args[1] = emit(k, b, last, (Op::Or, vec![theirs[1], args[1]], 1), out);
        }
    }
    if store {
        args[2] = predicate;
    }
    let width = k.nodes[last].width;
    let access = emit(k, b, last, (op, args, width), out);
    let Val::Node(a) = access else { return access };
    k.nodes[a].width = width;
    let mut sources: Vec<_> = Vec::new();
    for c in g {
        sources.push(k.nodes[c.node].source);
        sources.extend(k.combined.get(&c.node).into_iter().flatten().copied());
    }
    sources.retain(|&o| o != k.nodes[a].source);
    if !sources.is_empty() {
        k.combined.insert(a, sources);
    }
    access
}

/// `nodes` (one block's) in their order, except that a node comes after
/// the nodes it reads and an access after the earlier accesses of its
/// memory.
fn in_dependence_order(k: &Kernel, nodes: &[NodeId]) -> Vec<NodeId> {
    let here: FxHashSet<NodeId> = nodes.iter().copied().collect();
    let mut placed: FxHashSet<NodeId> = FxHashSet::default();
    let mut last_access: FxHashMap<MemId, NodeId> = FxHashMap::default();
    // Each node's predecessors: its operands in the block, and the
    // access of its memory before it.
    let mut needs: FxHashMap<NodeId, Vec<NodeId>> = FxHashMap::default();
    for &n in nodes {
        let mut before: Vec<NodeId> = (k.nodes[n].args.iter())
            .filter_map(|a| match *a {
                Val::Node(m) if here.contains(&m) => Some(m),
                _ => None,
            })
            .collect();
        if let Some(m) = k.nodes[n].op.memory() {
            before.extend(last_access.insert(m, n));
        }
        needs.insert(n, before);
    }
    let mut out = Vec::with_capacity(nodes.len());
    let mut waiting: Vec<NodeId> = nodes.to_vec();
    while !waiting.is_empty() {
        let before = out.len();
        waiting.retain(|&n| {
            let ready = needs[&n].iter().all(|m| placed.contains(m));
            if ready {
                placed.insert(n);
                out.push(n);
            }
            !ready
        });
        if out.len() == before {
            // A cycle cannot arise from merging; keep the rest as is.
            out.append(&mut waiting);
        }
    }
    out
}

/// A new node of block `b` appended to `out`, with `like`'s location
/// and source.
fn emit(
    k: &mut Kernel,
    b: usize,
    like: NodeId,
    node: (Op, Vec<Val>, u32),
    out: &mut Vec<NodeId>,
) -> Val {
    let (op, args, width) = node;
    let (loc, source) = (k.nodes[like].loc, k.nodes[like].source);
    let id = k.nodes.len();
    k.nodes.push(Node {
        op,
        args,
        width,
        loc,
        block: b,
        source,
    });
    out.push(id);
    Val::Node(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::kernel_with_attributes;

    /// A copy of `a` into a buffer of 4 x `columns` elements split
    /// cyclically by 5 on its columns, two elements an iteration, and back
    /// out to `p` the same way (its loads predicated where `guarded`: in
    /// an `affine.if` that holds for the first `columns` iterations).
    fn copy_of(columns: u64, guarded: bool) -> String {
        let n = 4 * columns;
        let shape = format!("4x{columns}xi32");
        let at = |e: &str| format!("({e}) floordiv {columns}, ({e}) mod {columns}");
        format!(
            "func.func @f(%a: memref<{n}xi32> {{hls.name = \"a\"}}, %p: memref<{n}xi32> {{hls.name = \"p\"}}) {{
               %b = memref.alloc() {{hls.name = \"b\", hls.partition = {{dim = 2 : i64, factor = 5 : i64, kind = \"cyclic\"}}}} : memref<{shape}>
               affine.for %e = 0 to {n} step 2 {{
                 %x = affine.load %a[%e] : memref<{n}xi32>
                 affine.store %x, %b[{e0}] : memref<{shape}>
                 %y = affine.load %a[%e + 1] : memref<{n}xi32>
                 affine.store %y, %b[{e1}] : memref<{shape}>
               }}
               affine.for %e = 0 to {n} step 2 {{
                 {open}
                 %x = affine.load %b[{e0}] : memref<{shape}>
                 affine.store %x, %p[%e] : memref<{n}xi32>
                 %y = affine.load %b[{e1}] : memref<{shape}>
                 affine.store %y, %p[%e + 1] : memref<{n}xi32>
                 {close}
               }}
               return
             }}",
            open = if guarded {
                format!("affine.if affine_set<(d0) : (-d0 + {} >= 0)>(%e) {{", 2 * columns - 1)
            } else {
                String::new()
            },
            close = if guarded { "}" } else { "" },
            e0 = at("%e"),
            e1 = at("%e + 1"),
        )
    }

    fn copy(columns: u64) -> String {
        copy_of(columns, false)
    }

    /// The accesses (loads or stores) of each bank of `b`.
    fn per_bank(k: &Kernel, store: bool) -> Vec<usize> {
        let banks: Vec<MemId> = (0..k.memories.len())
            .filter(|&m| k.memories[m].name.starts_with("b_"))
            .collect();
        banks
            .iter()
            .map(|&m| {
                let wanted = if store { Op::Store(m) } else { Op::Load(m) };
                (k.blocks.iter().flatten())
                    .filter(|&&n| k.nodes[n].op == wanted)
                    .count()
            })
            .collect()
    }

    #[test]
    fn two_elements_never_in_one_bank_share_its_access() {
        // Rows of 25 or 26: consecutive elements always in two banks.
        for columns in [25, 26] {
            let mut k = kernel_with_attributes(&copy(columns), "f");
            assert_eq!(per_bank(&k, true), vec![2; 5]);
            assert_eq!(per_bank(&k, false), vec![2; 5]);
            merge_exclusive_accesses(&mut k);
            assert_eq!(per_bank(&k, true), vec![1; 5]);
            assert_eq!(per_bank(&k, false), vec![1; 5]);
            // Every node comes after the nodes it reads.
            for block in &k.blocks {
                for (i, &n) in block.iter().enumerate() {
                    for a in &k.nodes[n].args {
                        if let Val::Node(m) = *a {
                            assert!(!block[i..].contains(&m), "node {n} reads {m} before it");
                        }
                    }
                }
            }
        }
        // Predicated loads (in an `affine.if`) merge too.
        let mut k = kernel_with_attributes(&copy_of(25, true), "f");
        assert_eq!(per_bank(&k, false), vec![2; 5]);
        assert!((k.blocks.iter().flatten()).any(
            |&n| matches!(k.nodes[n].op, Op::Load(m) if k.memories[m].name.starts_with("b_"))
                && k.nodes[n].args.len() == 2
        ));
        merge_exclusive_accesses(&mut k);
        assert_eq!(per_bank(&k, false), vec![1; 5]);
        // The merged accesses stand for both input accesses.
        let mut k = kernel_with_attributes(&copy(25), "f");
        merge_exclusive_accesses(&mut k);
        let banked = |n: &NodeId| matches!(k.nodes[*n].op.memory(), Some(m) if k.memories[m].name.starts_with("b_"));
        assert!((k.blocks.iter().flatten()).filter(|n| banked(n)).all(|n| k
            .combined
            .get(n)
            .map(Vec::len)
            == Some(1)));
    }

    #[test]
    fn accesses_that_meet_in_a_bank_stay_apart() {
        // Rows of 31: the last column (30, bank 0) and the next row's
        // first (bank 0) are accessed in one iteration.
        let mut k = kernel_with_attributes(&copy(31), "f");
        merge_exclusive_accesses(&mut k);
        for store in [true, false] {
            assert_eq!(per_bank(&k, store)[0], 2);
            assert_eq!(per_bank(&k, store)[1..], [1; 4]);
        }
    }
}
