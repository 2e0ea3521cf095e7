//! Accesses of a pipelined loop that run in some of its iterations only,
//! and the slots of a port they share. A flattened nest runs the code
//! around its inner loops under first- and last-iteration conditions
//! (`front/flatten.rs`): 2mm's second nest, flattened, reads `D[i][j]`
//! where its inner counter is at its first iteration (the value is used
//! only there, as the accumulator's initial value) and writes it back
//! where that counter is at its last. Counted as accesses, the two need
//! two cycles of `D`'s one port an iteration; run where they are needed,
//! they meet in one cycle only where the reading iteration is one after
//! the writing one, modulo the inner trip count.
//!
//! [`predicate_needed_loads`] gives a load the condition under which its
//! value is used as its predicate, where that lets it share a port: its
//! access then runs only there (`construct/datapath.rs` gates its enable,
//! as a store's). [`meetings`] walks the iterations of a pipelined loop
//! (the loops around it too: every run of it) and lists, for two
//! predicated accesses of a memory, the distances between their
//! iterations at which both run; the modulo scheduler may put them in one
//! slot of a port at any other distance (`silica_scheduling::SlotShare`),
//! and the binder gives them the same port: in any cycle at most one of
//! them runs, so the port takes its address (and data) as when they are
//! in slots of their own.

use super::exclusive::{loops_around_blocks, walk_iterations};
use crate::flow::analysis::trips::{value, DEPTH};
use crate::model::kernel::{Item, Kernel, LoopId, MemId, NodeId, Op, Val};
use rustc_hash::{FxHashMap, FxHashSet};

/// Distances between iterations looked at; beyond them two accesses are
/// taken to meet.
pub const REACH: i64 = 64;

/// A pair of accesses is worth a shared slot where some distance of at
/// most this many iterations finds them apart: a load and a store of the
/// same predicate (inside one `affine.if`) meet at every distance their
/// iterations can be apart, and are apart only further than a pipeline
/// reaches.
const NEAR: i64 = 8;

/// Predicate values computed per loop, at most.
const BUDGET: u64 = 1 << 18;

/// Two predicated accesses of one memory in a pipelined loop's body and
/// the distances `i_a - i_b` (within [`REACH`]) between an iteration in
/// which `a` runs and one in which `b` runs.
pub struct Meeting {
    pub a: NodeId,
    pub b: NodeId,
    pub distances: Vec<i64>,
}

/// Gives every load of a pipelined loop's body whose value is used only
/// under one condition ([`needed_under`]) that condition as its
/// predicate, where the body makes more accesses of its memory than the
/// memory has ports and another of them is predicated (or becomes so).
pub fn predicate_needed_loads(k: &mut Kernel) {
    let users = users(k);
    let outside: FxHashSet<NodeId> = (k.other_vals().into_iter())
        .filter_map(|v| match v {
            Val::Node(n) => Some(n),
            _ => None,
        })
        .collect();
    for l in 0..k.loops.len() {
        if !k.loops[l].pipelined {
            continue;
        }
        let nodes = k.body_nodes(l);
        let mut per_memory: FxHashMap<MemId, Vec<NodeId>> = FxHashMap::default();
        for &n in &nodes {
            if let Some(m) = k.nodes[n].op.memory().filter(|&m| k.memories[m].lanes <= 1) {
                per_memory.entry(m).or_default().push(n);
            }
        }
        let mut given = Vec::new();
        for (m, accesses) in per_memory {
            if accesses.len() as u32 <= k.memories[m].ports {
                continue;
            }
            let mut memo = FxHashMap::default();
            let loads: Vec<(NodeId, Val)> = (accesses.iter().copied())
                .filter(|&n| matches!(k.nodes[n].op, Op::Load(_)) && k.nodes[n].args.len() == 1)
                .filter_map(|n| Some((n, needed_under(k, &users, &outside, n, &mut memo)?)))
                .collect();
            let predicated = (accesses.iter())
                .filter(|&&n| k.access_predicate(n).is_some())
                .count();
            if predicated + loads.len() >= 2 {
                given.extend(loads);
            }
        }
        if given.is_empty() {
            continue;
        }
        for &(n, c) in &given {
            k.nodes[n].args.push(c);
        }
        // Kept where the load may then share a slot with another access.
        let sharing: FxHashSet<NodeId> = (meetings(k, l).into_iter())
            .flat_map(|m| [m.a, m.b])
            .collect();
        for (n, _) in given {
            if !sharing.contains(&n) {
                k.nodes[n].args.pop();
            }
        }
    }
}

/// Each node's users: the node and the argument position.
fn users(k: &Kernel) -> Vec<Vec<(NodeId, usize)>> {
    let mut out = vec![Vec::new(); k.nodes.len()];
    for (u, node) in k.nodes.iter().enumerate() {
        for (i, a) in node.args.iter().enumerate() {
            if let Val::Node(n) = *a {
                out[n].push((u, i));
            }
        }
    }
    out
}

/// The one condition under which the value of node `n` is used, if
/// there is one: each use is the chosen arm of a multiplexer on it, an
/// operand of an access predicated on it, or an operand of an operation
/// of the same block (neither an access nor a float operator) whose own
/// value is used only under it; `n` read anywhere else (a carried value,
/// a loop bound) has none.
fn needed_under(
    k: &Kernel,
    users: &[Vec<(NodeId, usize)>],
    outside: &FxHashSet<NodeId>,
    n: NodeId,
    memo: &mut FxHashMap<NodeId, Option<Val>>,
) -> Option<Val> {
    if let Some(&c) = memo.get(&n) {
        return c;
    }
    // A cycle back to `n` (none in a block's nodes) finds no condition.
    memo.insert(n, None);
    let mut found: Option<Val> = None;
    let mut agree = !outside.contains(&n) && !users[n].is_empty();
    for &(u, i) in &users[n] {
        if !agree {
            break;
        }
        let user = &k.nodes[u];
        let c = match user.op {
            Op::Mux if i == 1 && user.args[0] != Val::Node(n) && user.args[2] != Val::Node(n) => {
                Some(user.args[0])
            }
            Op::Store(_) if i < 2 && user.args.len() == 3 => Some(user.args[2]),
            Op::Load(_) if i == 0 && user.args.len() == 2 => Some(user.args[1]),
            Op::Load(_) | Op::Store(_) | Op::Float(_) | Op::Mux => None,
            _ if user.block == k.nodes[n].block => needed_under(k, users, outside, u, memo),
            _ => None,
        };
        match (c, found) {
            (None, _) => agree = false,
            (Some(c), None) => found = Some(c),
            (Some(c), Some(f)) => agree = c == f,
        }
    }
    // A packed store's predicate is a mask of its lanes, no condition.
    let out = found.filter(|&c| agree && k.width(c) == 1);
    memo.insert(n, out);
    out
}

/// The predicated accesses of loop `l`'s body, two by two on each
/// memory, with the distances between their iterations at which both
/// run, where some distance of at most [`NEAR`] iterations finds them
/// apart; none where a bound or a predicate is not known from the
/// counters, or the walk would compute more than [`BUDGET`] predicates.
pub fn meetings(k: &Kernel, l: LoopId) -> Vec<Meeting> {
    let nodes = k.body_nodes(l);
    let mut per_memory: FxHashMap<MemId, Vec<(NodeId, Val)>> = FxHashMap::default();
    for &n in &nodes {
        let memory = k.nodes[n].op.memory().filter(|&m| k.memories[m].lanes <= 1);
        if let (Some(m), Some(p)) = (memory, k.access_predicate(n)) {
            per_memory.entry(m).or_default().push((n, p));
        }
    }
    per_memory.retain(|_, v| v.len() >= 2);
    if per_memory.is_empty() {
        return Vec::new();
    }
    let Some(block) = k.loops[l].body.iter().find_map(|it| match it {
        Item::Block(b) => Some(*b),
        _ => None,
    }) else {
        return Vec::new();
    };
    let Some(Some(chain)) = loops_around_blocks(k).get(block).cloned() else {
        return Vec::new();
    };
    let Some(at) = chain.iter().position(|&c| c == l) else {
        return Vec::new();
    };
    let candidates: Vec<(NodeId, Val)> = per_memory.values().flatten().copied().collect();
    // Each candidate's iterations (counted over all runs of the loop,
    // a run starting after the last one's iterations plus the reach, so
    // that no two runs' iterations come within it).
    let mut runs: Vec<Vec<i64>> = vec![Vec::new(); candidates.len()];
    let mut env: Vec<Option<i64>> = vec![None; k.loops.len()];
    let mut budget = BUDGET;
    let mut iteration: i64 = -1;
    let mut outer: Option<Vec<Option<i64>>> = None;
    let walked = walk_iterations(k, &chain, &mut env, &mut |env| {
        budget = budget.checked_sub(candidates.len() as u64)?;
        let around: Vec<Option<i64>> = chain[..at].iter().map(|&c| env[c]).collect();
        if outer.as_ref() != Some(&around) {
            iteration += REACH + 1;
            outer = Some(around);
        }
        iteration += 1;
        for (i, &(_, p)) in candidates.iter().enumerate() {
            if value(k, env, p, DEPTH)? != 0 {
                runs[i].push(iteration);
            }
        }
        Some(())
    });
    if walked.is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, &(a, _)) in candidates.iter().enumerate() {
        for (j, &(b, _)) in candidates.iter().enumerate().skip(i + 1) {
            if k.nodes[a].op.memory() != k.nodes[b].op.memory() {
                continue;
            }
            let distances = distances(&runs[i], &runs[j]);
            if (-NEAR..=NEAR).any(|d| distances.binary_search(&d).is_err()) {
                out.push(Meeting { a, b, distances });
            }
        }
    }
    out
}

/// The distances `x - y` within [`REACH`] over `x` of `xs` and `y` of
/// `ys` (both ascending).
fn distances(xs: &[i64], ys: &[i64]) -> Vec<i64> {
    let mut out = FxHashSet::default();
    for &x in xs {
        let from = ys.partition_point(|&y| y < x - REACH);
        for &y in ys[from..].iter().take_while(|&&y| y <= x + REACH) {
            out.insert(x - y);
        }
        if out.len() as i64 > 2 * REACH {
            break;
        }
    }
    let mut out: Vec<i64> = out.into_iter().collect();
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::distances;

    #[test]
    fn the_distances_between_first_and_last_iterations_of_rows_of_four_are_one_modulo_four() {
        let first: Vec<i64> = (0..5).map(|r| 4 * r).collect();
        let last: Vec<i64> = (0..5).map(|r| 4 * r + 3).collect();
        let d = distances(&first, &last);
        assert!(d.contains(&1) && d.contains(&-3) && d.contains(&5));
        assert!(!d.contains(&0) && !d.contains(&2) && !d.contains(&-1));
        assert!(d.iter().all(|x| x.rem_euclid(4) == 1));
    }
}
