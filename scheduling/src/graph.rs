//! Dependence-graph algorithms shared by the checks and schedulers:
//! cycle finding, topological order, longest paths with per-edge weights
//! (ASAP times and II feasibility), and the lower bounds ResMII and RecMII.

use crate::longest::{dependence_edges, earliest};
use crate::problem::{OpId, Problem};

/// An operation cycle among `edges` over `n` nodes, if there is one, in
/// edge order.
pub(crate) fn find_cycle(n: usize, edges: impl Iterator<Item = (OpId, OpId)>) -> Option<Vec<OpId>> {
    let edges: Vec<(OpId, OpId)> = edges.collect();
    let order = topo_order(n, &edges);
    if order.len() == n {
        return None;
    }
    // Nodes left out of the order lie on or behind a cycle; walking back
    // along left-out predecessors must close one.
    let mut placed = vec![false; n];
    for op in &order {
        placed[op.0 as usize] = true;
    }
    let mut pred = vec![None; n];
    for &(s, d) in &edges {
        if !placed[s.0 as usize] && !placed[d.0 as usize] {
            pred[d.0 as usize] = Some(s);
        }
    }
    let start = (0..n).find(|&i| !placed[i])?;
    let mut seen_at = vec![usize::MAX; n];
    let mut walk = Vec::new();
    let mut cur = OpId(start as u32);
    while seen_at[cur.0 as usize] == usize::MAX {
        seen_at[cur.0 as usize] = walk.len();
        walk.push(cur);
        cur = pred[cur.0 as usize]?;
    }
    let mut cycle = walk.split_off(seen_at[cur.0 as usize]);
    cycle.reverse();
    Some(cycle)
}

/// Kahn's topological order of the nodes not on or behind a cycle.
pub(crate) fn topo_order(n: usize, edges: &[(OpId, OpId)]) -> Vec<OpId> {
    let mut indegree = vec![0u32; n];
    let mut succ_start = vec![0usize; n + 1];
    for &(s, d) in edges {
        indegree[d.0 as usize] += 1;
        succ_start[s.0 as usize + 1] += 1;
    }
    for i in 0..n {
        succ_start[i + 1] += succ_start[i];
    }
    let mut fill = succ_start.clone();
    let mut succs = vec![OpId(0); edges.len()];
    for &(s, d) in edges {
        succs[fill[s.0 as usize]] = d;
        fill[s.0 as usize] += 1;
    }
    let mut order: Vec<OpId> = (0..n as u32)
        .map(OpId)
        .filter(|op| indegree[op.0 as usize] == 0)
        .collect();
    let mut next = 0;
    while next < order.len() {
        let op = order[next];
        next += 1;
        for &d in &succs[succ_start[op.0 as usize]..succ_start[op.0 as usize + 1]] {
            indegree[d.0 as usize] -= 1;
            if indegree[d.0 as usize] == 0 {
                order.push(d);
            }
        }
    }
    order
}

/// Earliest start times under `t_dst >= t_src + latency(src) - distance *
/// ii` and `t >= 0`, or `None` when a positive cycle makes `ii`
/// infeasible.
pub(crate) fn earliest_starts(p: &Problem, ii: u32) -> Option<Vec<i64>> {
    earliest(p.operations.len(), &dependence_edges(p, ii))
}

/// The recurrence-constrained minimum II: the smallest II for which no
/// dependence cycle is too long (1 when there are no cycles). The problem
/// must be checked (every cycle has a distance).
pub fn rec_mii(p: &Problem) -> u32 {
    let total_latency: u64 = p.ops().map(|op| p.latency(op) as u64).sum();
    let (mut lo, mut hi) = (1u32, total_latency.max(1).min(u32::MAX as u64) as u32);
    if earliest_starts(p, lo).is_some() {
        return lo;
    }
    // Feasible at `hi`: a cycle with distance >= 1 has latency <= total.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if earliest_starts(p, mid).is_some() {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// The resource-constrained minimum II: the most uses of any limited
/// resource divided by its limit, rounded up (1 when nothing is limited).
/// Limits must be positive (checked problems).
pub fn res_mii(p: &Problem) -> u32 {
    let mut uses = vec![0u32; p.num_resource_slots()];
    let mut limits = vec![1u32; p.num_resource_slots()];
    for op in p.ops() {
        for (r, limit) in p.limited_resources(op) {
            uses[r] += 1;
            limits[r] = limit.max(1);
        }
    }
    uses.iter()
        .zip(&limits)
        .map(|(&u, &l)| u.div_ceil(l))
        .max()
        .unwrap_or(0)
        .max(1)
}
