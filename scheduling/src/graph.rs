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

/// The successors of each of `n` nodes under `arcs`, packed: node `v`'s
/// are `succs[start[v]..start[v + 1]]`, in arc order.
struct Successors {
    start: Vec<usize>,
    succs: Vec<usize>,
}

impl Successors {
    fn new(n: usize, arcs: &[(usize, usize)]) -> Successors {
        let mut start = vec![0usize; n + 1];
        for &(s, _) in arcs {
            start[s + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut succs = vec![0usize; arcs.len()];
        for &(s, d) in arcs {
            succs[fill[s]] = d;
            fill[s] += 1;
        }
        Successors { start, succs }
    }

    fn of(&self, v: usize) -> &[usize] {
        &self.succs[self.start[v]..self.start[v + 1]]
    }
}

/// Kahn's topological order of the nodes not on or behind a cycle.
pub(crate) fn topo_order(n: usize, edges: &[(OpId, OpId)]) -> Vec<OpId> {
    let arcs: Vec<(usize, usize)> = (edges.iter())
        .map(|&(s, d)| (s.0 as usize, d.0 as usize))
        .collect();
    let succs = Successors::new(n, &arcs);
    let mut indegree = vec![0u32; n];
    for &(_, d) in &arcs {
        indegree[d] += 1;
    }
    let mut order: Vec<usize> = (0..n).filter(|&v| indegree[v] == 0).collect();
    let mut next = 0;
    while next < order.len() {
        let v = order[next];
        next += 1;
        for &d in succs.of(v) {
            indegree[d] -= 1;
            if indegree[d] == 0 {
                order.push(d);
            }
        }
    }
    order.into_iter().map(|v| OpId(v as u32)).collect()
}

/// Earliest start times under `t_dst >= t_src + latency(src) - distance *
/// ii` and `t >= 0`, or `None` when a positive cycle makes `ii`
/// infeasible.
pub(crate) fn earliest_starts(p: &Problem, ii: u32) -> Option<Vec<i64>> {
    earliest(p.operations.len(), &dependence_edges(p, ii))
}

/// The strongly connected components of a problem's dependence graph
/// that hold a cycle, each with its own edges: a cycle, and any path
/// between two operations of one component, lies within it.
pub(crate) struct Cyclic {
    /// Each component's operations, in increasing order.
    pub(crate) members: Vec<Vec<usize>>,
    /// Each component's dependences (indices into the problem's), between
    /// its operations, in a topological order of their sources under the
    /// dependences within an iteration (so that longest paths settle in
    /// as many rounds as the paths cross iterations).
    pub(crate) edges: Vec<Vec<usize>>,
    /// Each operation's position in its component's `members`.
    pub(crate) local: Vec<usize>,
}

impl Cyclic {
    pub(crate) fn of(p: &Problem) -> Cyclic {
        let n = p.operations.len();
        let arcs: Vec<(usize, usize)> = p
            .dependences
            .iter()
            .map(|d| (d.src.0 as usize, d.dst.0 as usize))
            .collect();
        let component = components(n, &arcs);
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (op, &c) in component.iter().enumerate() {
            members[c].push(op);
        }
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, &(s, d)) in arcs.iter().enumerate() {
            if component[s] == component[d] {
                edges[component[s]].push(i);
            }
        }
        let within_iteration: Vec<(OpId, OpId)> = (p.dependences.iter())
            .filter(|d| d.distance == 0)
            .map(|d| (d.src, d.dst))
            .collect();
        let mut rank = vec![n; n];
        for (i, op) in topo_order(n, &within_iteration).into_iter().enumerate() {
            rank[op.0 as usize] = i;
        }
        for e in &mut edges {
            e.sort_by_key(|&i| rank[p.dependences[i].src.0 as usize]);
        }
        let mut local = vec![0usize; n];
        for nodes in &members {
            for (i, &op) in nodes.iter().enumerate() {
                local[op] = i;
            }
        }
        let (members, edges) = members
            .into_iter()
            .zip(edges)
            .filter(|(_, e)| !e.is_empty())
            .unzip();
        Cyclic {
            members,
            edges,
            local,
        }
    }

    /// Component `c`'s edges in its local numbering, weighted
    /// `latency(src) - distance * ii`.
    pub(crate) fn weighted(&self, p: &Problem, c: usize, ii: u32) -> Vec<(usize, usize, i64)> {
        self.edges[c]
            .iter()
            .map(|&e| {
                let d = &p.dependences[e];
                let w = i64::from(p.latency(d.src)) - i64::from(d.distance) * i64::from(ii);
                (
                    self.local[d.src.0 as usize],
                    self.local[d.dst.0 as usize],
                    w,
                )
            })
            .collect()
    }
}

/// The recurrence-constrained minimum II: the smallest II for which no
/// dependence cycle is too long (1 when there are no cycles). The problem
/// must be checked (every cycle has a distance). Each component with a
/// cycle is searched on its own edges ([`Cyclic`]): the feasibility test
/// (longest paths, which run as many rounds as there are nodes when a
/// cycle is too long) then costs the component's size, not the loop
/// body's.
pub fn rec_mii(p: &Problem) -> u32 {
    let cyclic = Cyclic::of(p);
    let mut rec = 1;
    for (c, nodes) in cyclic.members.iter().enumerate() {
        let latency: u64 = nodes
            .iter()
            .map(|&op| p.latency(OpId(op as u32)) as u64)
            .sum();
        let feasible = |ii: u32| earliest(nodes.len(), &cyclic.weighted(p, c, ii)).is_some();
        // Feasible at the component's total latency: a cycle with a
        // distance of 1 or more is no longer than that.
        let (mut lo, mut hi) = (rec, latency.max(1).min(u32::MAX as u64) as u32);
        if hi <= lo || feasible(lo) {
            continue;
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if feasible(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        rec = hi;
    }
    rec
}

/// The strongly connected component of each of `n` nodes under `arcs`
/// (Tarjan's algorithm, without recursion), numbered from 0.
fn components(n: usize, arcs: &[(usize, usize)]) -> Vec<usize> {
    let succs = Successors::new(n, arcs);
    const UNSEEN: usize = usize::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![UNSEEN; n];
    let mut stack = Vec::new();
    let (mut next_index, mut next_component) = (0, 0);
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // (node, how many of its successors are visited)
        let mut calls = vec![(root, 0)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut at)) = calls.last_mut() {
            if let Some(&w) = succs.of(v).get(*at) {
                *at += 1;
                if index[w] == UNSEEN {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(u, _)) = calls.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = next_component;
                    if w == v {
                        break;
                    }
                }
                next_component += 1;
            }
        }
    }
    component
}

/// The resource-constrained minimum II: the most uses of any limited
/// resource divided by its limit, rounded up (1 when nothing is limited),
/// two users that may share a slot ([`Problem::shares`]) counted once.
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
    // Two users of a resource of limit 1 that may share its slot use it
    // once (each pair counted where neither is in another counted pair).
    let mut paired = vec![false; p.operations.len()];
    for s in &p.shares {
        let (a, b) = (s.a.0 as usize, s.b.0 as usize);
        if paired[a] || paired[b] || !p.may_share(s.a, s.b) {
            continue;
        }
        let on_one = p
            .limited_resources(s.a)
            .filter(|&(r, limit)| limit == 1 && p.limited_resources(s.b).any(|(q, _)| q == r))
            .map(|(r, _)| r)
            .collect::<Vec<_>>();
        if on_one.is_empty() {
            continue;
        }
        paired[a] = true;
        paired[b] = true;
        for r in on_one {
            uses[r] -= 1;
        }
    }
    uses.iter()
        .zip(&limits)
        .map(|(&u, &l)| u.div_ceil(l))
        .max()
        .unwrap_or(0)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::{earliest_starts, rec_mii};
    use crate::problem::ProblemKind;
    use crate::random::{random_problem, RandomShape};

    /// The smallest II whose longest paths over the whole graph exist.
    fn rec_mii_over_the_whole_graph(p: &crate::problem::Problem) -> u32 {
        (1..).find(|&ii| earliest_starts(p, ii).is_some()).unwrap()
    }

    #[test]
    fn recurrences_searched_a_component_at_a_time_bound_the_ii_as_the_whole_graph_does() {
        let mut recurrent = 0;
        for seed in 1..40 {
            let shape = RandomShape {
                kind: ProblemKind::CyclicProblem,
                operations: 10 + (seed as usize % 5) * 20,
                fan_in: 2,
                back_edges_per_100: 5 + (seed as usize % 4) * 10,
                resource_scale: 1,
            };
            let p = random_problem(shape, seed);
            let rec = rec_mii(&p);
            assert_eq!(rec, rec_mii_over_the_whole_graph(&p), "seed {seed}");
            recurrent += usize::from(rec > 1);
        }
        assert!(recurrent >= 20, "{recurrent} of the instances bound the II");
    }
}
